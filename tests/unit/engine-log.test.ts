/**
 * The native plugin's log: the engine's address found among the plugin's arguments, and a handler's
 * message delivered to the engine's Log as an info diagnostic (a fake engine here), so a YAML, Python
 * or Go user sees "left in place" in their `pulumi` output.
 */
import { strict as assert } from "node:assert";
import { createRequire } from "node:module";
import type * as grpcTypes from "@grpc/grpc-js";
import type * as engineTypes from "@pulumi/pulumi/proto/engine_pb";
import type * as engineServiceTypes from "@pulumi/pulumi/proto/engine_grpc_pb";
import { engineAddressOf, engineLog } from "../../provider/native/engine-log";
import { openSession } from "../../provider/session";

const fromPulumi = createRequire(require.resolve("@pulumi/pulumi/proto/engine_grpc_pb"));
const grpc: typeof grpcTypes = fromPulumi("@grpc/grpc-js");
const proto: typeof engineTypes = fromPulumi("./engine_pb");
const service: typeof engineServiceTypes = fromPulumi("./engine_grpc_pb");

describe("the native plugin's log to the engine", () => {
  it("finds the engine's address after the flags, and none where there is none", () => {
    assert.equal(engineAddressOf(["127.0.0.1:41234"]), "127.0.0.1:41234");
    assert.equal(
      engineAddressOf(["--logtostderr", "-v=9", "--tracing", "x", "localhost:5000"]),
      "localhost:5000",
    );
    assert.equal(engineAddressOf([]), undefined);
    assert.equal(engineAddressOf(["--logtostderr"]), undefined);
  });

  it("delivers a message to the engine's Log at info severity", async () => {
    const got: { severity: number; message: string }[] = [];
    const server = new grpc.Server();
    let delivered: () => void = () => undefined;
    const arrived = new Promise<void>((resolve) => (delivered = resolve));
    server.addService(service.EngineService, {
      log(
        call: grpcTypes.ServerUnaryCall<engineTypes.LogRequest, unknown>,
        done: grpcTypes.sendUnaryData<unknown>,
      ) {
        got.push({ severity: call.request.getSeverity(), message: call.request.getMessage() });
        done(null, new (fromPulumi("google-protobuf/google/protobuf/empty_pb").Empty)());
        delivered();
      },
    });
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) =>
        err ? reject(err) : resolve(p),
      ),
    );
    try {
      engineLog(`127.0.0.1:${port}`)('MeetingApp: app a1 ("support") left in place');
      await arrived;
      assert.deepEqual(got, [
        { severity: proto.LogSeverity.INFO, message: 'MeetingApp: app a1 ("support") left in place' },
      ]);
    } finally {
      // Graceful: the answer reaches the client (a failed call would write the message to stderr too).
      await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
    }
  });
});

describe("a session's log", () => {
  it("escapes what a terminal would act on in a name read from the account", () => {
    const got: string[] = [];
    const session = openSession(undefined, {}, "test", (m) => got.push(m));
    session.context.log('MeetingApp: app a1 ("evil\u202e\u001b[2Jname") left in place');
    assert.deepEqual(got, ['MeetingApp: app a1 ("evil\\u202e\\x1b[2Jname") left in place']);
  });
});
