/**
 * The plugin's gRPC server (provider/native/server.ts) as the engine meets it: the settings reach
 * the provider at Configure, a diff carries its detailed diff, and a partial create is an
 * initialization failure whose id and properties travel in the status details.
 */
import { strict as assert } from "node:assert";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import type * as grpcTypes from "@grpc/grpc-js";
import type { ServiceError, sendUnaryData, ServerUnaryCall } from "@grpc/grpc-js";
import type * as serviceTypes from "@pulumi/pulumi/proto/provider_grpc_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import * as proto from "@pulumi/pulumi/proto/provider_pb";
import * as status from "@pulumi/pulumi/proto/status_pb";
import { NativeProvider } from "../../provider/native/provider";
import { serve, serviceOf } from "../../provider/native/server";
import { useEmulator } from "../helpers/emulator";

const urn = (kind: string) => `urn:pulumi:dev::proj::account-api:index:${kind}::r`;

/** One unary call of a served method: its answer, or its error. */
function call<Req, Res>(
  method: (call: ServerUnaryCall<Req, Res>, callback: sendUnaryData<Res>) => void,
  request: Req,
): Promise<{ res?: Res | null; err?: Partial<ServiceError> | null }> {
  return new Promise((done) => {
    // The handlers read the request only.
    const unary = { request } as ServerUnaryCall<Req, Res>;
    method(unary, (err, res) => done({ err, res }));
  });
}

describe("the native plugin's gRPC server", () => {
  const fx = useEmulator();

  async function configured() {
    const p = new NativeProvider({ version: "9.9.9", env: {} });
    const service = serviceOf(p);
    const req = new proto.ConfigureRequest();
    const vars = req.getVariablesMap();
    vars.set("account-api:config:baseUrl", fx.em.url);
    vars.set("account-api:config:apiToken", fx.em.token);
    vars.set("account-api:config:accountId", fx.em.accountId);
    const { res } = await call(service.configure, req);
    assert.equal(res?.getAcceptsecrets(), true);
    return service;
  }

  it("configures from the engine's variables, then serves a diff with its detailed diff", async () => {
    const service = await configured();
    const req = new proto.DiffRequest()
      .setId("z1")
      .setUrn(urn("ZoneContentConverter"))
      .setOlds(Struct.fromJavaScript({ zoneId: "z1", value: "on", editable: true }))
      .setNews(Struct.fromJavaScript({ zoneId: "z1", value: "off" }));
    const { res } = await call(service.diff, req);
    assert.ok(res);
    assert.equal(res.getChanges(), proto.DiffResponse.DiffChanges.DIFF_SOME);
    assert.equal(res.getHasdetaileddiff(), true);
    assert.deepEqual(res.getDiffsList(), ["value"]);
    assert.equal(res.getDetaileddiffMap().get("value")?.getKind(), proto.PropertyDiff.Kind.UPDATE);
  });

  it("answers a partial create as ErrorResourceInitFailed with the id and properties", async () => {
    const service = await configured();
    const zoneId = (await fx.api.content.zones.create({}, { name: "example.com" })).id;
    const check = await call(
      service.check,
      new proto.CheckRequest().setUrn(urn("ConfigRule")).setNews(
        Struct.fromJavaScript({
          zoneId,
          customHostnameMetadata: true,
          customHostnameIds: ["f".repeat(32)],
        }),
      ),
    );
    const inputs = check.res?.getInputs();
    assert.ok(inputs);
    const { err } = await call(
      service.create,
      new proto.CreateRequest().setUrn(urn("ConfigRule")).setProperties(inputs),
    );
    assert.ok(err?.metadata, "structured details");
    const [bin] = err.metadata.get("grpc-status-details-bin");
    assert.ok(bin instanceof Buffer);
    const [detail] = status.Status.deserializeBinary(bin).getDetailsList();
    assert.equal(detail?.getTypeName(), "pulumirpc.ErrorResourceInitFailed");
    const init = proto.ErrorResourceInitFailed.deserializeBinary(detail.getValue_asU8());
    assert.match(init.getId(), new RegExp(`^${zoneId}/pulumi-`));
    assert.ok(init.getProperties()?.toJavaScript().ruleId, "what was made");
    assert.match(init.getReasonsList()[0] ?? "", /^customHostnameIds: /);
    assert.ok(!JSON.stringify(init.toObject()).includes(fx.em.token));
  });

  it("over the wire, refuses a second Configure that changes a setting; an identical repeat is accepted", async () => {
    // Any local process can reach the plugin's port: a second Configure pointing the provider at its
    // own base URL would have it send the environment's token there.
    let stolen = 0;
    const thief = createServer((_req, res) => {
      stolen++;
      res.writeHead(200, { "content-type": "application/json" }).end('{"success":true,"result":{}}');
    });
    await new Promise<void>((resolve) => thief.listen(0, "127.0.0.1", resolve));
    const thiefUrl = `http://127.0.0.1:${(thief.address() as AddressInfo).port}/client/v4`;
    const provider = new NativeProvider({ version: "9.9.9", env: { ACCOUNT_API_TOKEN: fx.em.token } });
    const { port, server } = await serve(provider);
    // The stubs and grpc-js the server uses, from @pulumi/pulumi's own folder.
    const fromPulumi = createRequire(require.resolve("@pulumi/pulumi/proto/provider_grpc_pb"));
    const grpc: typeof grpcTypes = fromPulumi("@grpc/grpc-js");
    const stubs: typeof serviceTypes = fromPulumi("./provider_grpc_pb");
    const client = new stubs.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    const configure = (baseUrl: string) => {
      const req = new proto.ConfigureRequest();
      req.getVariablesMap().set("account-api:config:baseUrl", baseUrl);
      req.getVariablesMap().set("account-api:config:accountId", fx.em.accountId);
      return new Promise<{ err: ServiceError | null; res?: proto.ConfigureResponse }>((done) =>
        client.configure(req, (err, res) => done({ err, res })),
      );
    };
    try {
      const first = await configure(fx.em.url);
      assert.equal(first.err, null);
      assert.equal(first.res?.getAcceptsecrets(), true);
      const second = await configure(thiefUrl);
      assert.equal(second.err?.code, grpc.status.FAILED_PRECONDITION);
      assert.match(
        second.err.details,
        /Configure refused: this provider is already configured, and this one changes account-api:baseUrl;/,
      );
      assert.ok(!second.err.details.includes(fx.em.token));
      const repeat = await configure(fx.em.url);
      assert.equal(repeat.err, null, "an identical repeat is accepted");
      // The provider still talks to the first base URL only.
      const zoneId = (await fx.api.content.zones.create({}, { name: "example.com" })).id;
      const before = fx.em.requestLog.length;
      const read = await new Promise<{ err: ServiceError | null; res?: proto.ReadResponse }>((done) =>
        client.read(
          new proto.ReadRequest()
            .setId(zoneId)
            .setUrn(urn("ZoneContentConverter"))
            .setProperties(Struct.fromJavaScript({ zoneId })),
          (err, res) => done({ err, res }),
        ),
      );
      assert.equal(read.err, null);
      assert.equal(read.res?.getId(), zoneId);
      assert.ok(fx.em.requestLog.length > before, "the read reached the configured API");
      assert.equal(stolen, 0, "nothing reached the second base URL");
    } finally {
      client.close();
      server.forceShutdown();
      await new Promise<void>((resolve) => thief.close(() => resolve()));
    }
  });

  it("answers the plugin's version", async () => {
    const service = serviceOf(new NativeProvider({ version: "9.9.9", env: {} }));
    const { res } = await call(service.getPluginInfo, new Empty());
    assert.equal(res?.getVersion(), "9.9.9");
  });
});
