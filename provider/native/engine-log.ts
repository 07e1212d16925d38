/**
 * The engine's log, for the native plugin: what a handler reports (a meeting set INACTIVE, an app left
 * in place) reaches the user's `pulumi` output as an info diagnostic, as it does for the Node host's
 * dynamic provider. The engine gives its address as the plugin's last argument; without one (a plugin
 * started by hand or by a test) or when the engine cannot be reached, the message goes to stderr.
 *
 * Loaded from `@pulumi/pulumi`'s own folder, as server.ts loads the provider's stubs.
 */
import { createRequire } from "node:module";
import type * as grpcTypes from "@grpc/grpc-js";
import type * as engineTypes from "@pulumi/pulumi/proto/engine_pb";
import type * as engineServiceTypes from "@pulumi/pulumi/proto/engine_grpc_pb";

/** Writes one line to the user's output. */
export type LogSink = (message: string) => void;

/** The engine's address among the plugin's arguments: the last `host:port` (flags come first). */
export function engineAddressOf(argv: readonly string[]): string | undefined {
  return [...argv].reverse().find((a) => /^[A-Za-z0-9.[\]:-]+:\d{1,5}$/.test(a) && !a.startsWith("-"));
}

const toStderr: LogSink = (message) => console.error(message);

/** A sink to the engine at `address` (info severity, no resource), stderr when there is none. */
export function engineLog(address: string | undefined): LogSink {
  if (address === undefined) return toStderr;
  const fromPulumi = createRequire(require.resolve("@pulumi/pulumi/proto/engine_grpc_pb"));
  const grpc: typeof grpcTypes = fromPulumi("@grpc/grpc-js");
  const proto: typeof engineTypes = fromPulumi("./engine_pb");
  const service: typeof engineServiceTypes = fromPulumi("./engine_grpc_pb");
  let client: engineServiceTypes.EngineClient | undefined;
  return (message) => {
    client ??= new service.EngineClient(address, grpc.credentials.createInsecure());
    const req = new proto.LogRequest().setSeverity(proto.LogSeverity.INFO).setMessage(message);
    client.log(req, (err) => {
      if (err) toStderr(message);
    });
  };
}
