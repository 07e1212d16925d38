/** The one provider object of every MeetingApp (see core/shim.ts for why it is a module's exports). */
import { shimFor } from "../core/shim";

export = shimFor("MeetingApp");
