/**
 * The RealtimeKit apps operations: list and create (the contract has no read, update or delete of an
 * app). An app made here is the one its meetings are made in, under `…/realtime/kit/{app_id}/…`.
 */
import * as G from "../../sdk/generated/meetings";
import { AccountParams, orEmpty } from "../define";
import { REALTIME, type Meetings, type MeetingsArea } from "./context";

const APPS = "/accounts/:account_id/realtime/kit/apps";

/** The contract's results are the whole body (`{ success, data }`); the area's envelope adds the outside. */
const AppList = G.GetAppsResult.shape.data.unwrap();
const CreatedApp = G.CreateAppResult.shape.data.unwrap();

export function appRoutes(area: MeetingsArea, { model }: Meetings): void {
  area.get(APPS, { params: AccountParams, response: AppList, permissions: REALTIME }, ({ params }) =>
    model.apps(params.account_id),
  );

  // The contract answers 200 (not 201) with the app under `data.app`.
  area.post(
    APPS,
    { params: AccountParams, body: orEmpty(G.CreateAppBody), response: CreatedApp, permissions: REALTIME },
    ({ params, body }) => ({ app: model.createApp(params.account_id, body.name) }),
  );
}
