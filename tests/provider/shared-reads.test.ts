/**
 * A provider session shares identical reads made at once (sdk option shareReads): twenty connections
 * read together list the account's connections twice, not twenty times, and every read still sees
 * the truth as of its own call, a change made just before it included.
 */
import { strict as assert } from "node:assert";
import { handlerFor } from "../../provider/registry";
import { openSession, type Session } from "../../provider/runtime";
import { offlineContext } from "../helpers/provider-context";
import { useEmulator } from "../helpers/emulator";

const N = 20;

describe("provider session: shared reads", () => {
  const fx = useEmulator();
  const connection = handlerFor("RepoConnection");
  let session: Session;
  afterEach(() => session?.close());

  const listings = (): number =>
    fx.em.requestLog.filter((e) => e.method === "GET" && e.url.endsWith("/builds/repos/connections")).length;

  it(`${N} connections read at once list the connections twice, and each read is right`, async () => {
    session = openSession(undefined, {
      ACCOUNT_API_BASE_URL: fx.em.url,
      ACCOUNT_API_TOKEN: fx.em.token,
      ACCOUNT_API_ACCOUNT_ID: fx.em.accountId,
    });
    const ctx = session.context;
    const made: Awaited<ReturnType<typeof connection.create>>[] = [];
    for (let i = 0; i < N; i++) {
      const checked = await connection.check(
        undefined,
        {
          providerType: "github",
          providerAccountId: "acme",
          providerAccountName: "Acme",
          repoId: `r${i}`,
          repoName: `repo-${i}`,
        },
        offlineContext,
      );
      assert.deepEqual(checked.failures, []);
      made.push(await connection.create(checked.inputs!, ctx));
    }
    // Changed behind the program's back just before the refresh: the shared read must see it.
    await fx.api.builds.repos.connections.upsert(
      {},
      {
        provider_type: "github",
        provider_account_id: "acme",
        provider_account_name: "Acme",
        repo_id: "r7",
        repo_name: "renamed-7",
      },
    );
    fx.em.requestLog.length = 0;
    const read = await Promise.all(made.map((m) => connection.read(m.id, m.outs, ctx)));
    assert.equal(listings(), 2);
    read.forEach((r, i) => {
      assert.equal(r?.id, made[i]!.id);
      assert.equal(Reflect.get(r!.props, "repoName"), i === 7 ? "renamed-7" : `repo-${i}`);
    });
    // One at a time, nothing is shared: each read makes its own listing.
    fx.em.requestLog.length = 0;
    for (const m of made.slice(0, 3)) await connection.read(m.id, m.outs, ctx);
    assert.equal(listings(), 3);
  });
});
