/**
 * The plugin's gRPC server. The stock one of `@pulumi/pulumi/provider` (3.259) cannot serve this
 * provider: its Configure answers without handing the provider the settings, CheckConfig and
 * DiffConfig answer UNIMPLEMENTED, its Diff drops the detailed diff, and its class is not exported to
 * extend. So this serves the same ResourceProvider service (the SDK's own generated stubs and
 * protobuf messages) over a NativeProvider: every method the engine calls, each a thin translation.
 * A method not here (Construct, Call, Parameterize, …) answers UNIMPLEMENTED (grpc-js's default).
 *
 * Loaded from `@pulumi/pulumi`'s own folder, so the messages and the stubs share one protobuf
 * runtime, whatever the layout of node_modules.
 */
import { createRequire } from "node:module";
import type * as grpcTypes from "@grpc/grpc-js";
import type * as structTypes from "google-protobuf/google/protobuf/struct_pb";
import type * as anyTypes from "google-protobuf/google/protobuf/any_pb";
import type * as emptyTypes from "google-protobuf/google/protobuf/empty_pb";
import type * as pluginTypes from "@pulumi/pulumi/proto/plugin_pb";
import type * as providerTypes from "@pulumi/pulumi/proto/provider_pb";
import type * as serviceTypes from "@pulumi/pulumi/proto/provider_grpc_pb";
import type * as statusTypes from "@pulumi/pulumi/proto/status_pb";
import { PartialCreateError } from "../errors";
import {
  ReconfigureRefusedError,
  type DetailedDiffResult,
  type NativeProvider,
  type PropertyChange,
} from "./provider";

const fromPulumi = createRequire(require.resolve("@pulumi/pulumi/proto/provider_grpc_pb"));
const grpc: typeof grpcTypes = fromPulumi("@grpc/grpc-js");
const { Struct }: typeof structTypes = fromPulumi("google-protobuf/google/protobuf/struct_pb");
const { Any }: typeof anyTypes = fromPulumi("google-protobuf/google/protobuf/any_pb");
const { Empty }: typeof emptyTypes = fromPulumi("google-protobuf/google/protobuf/empty_pb");
const plugin: typeof pluginTypes = fromPulumi("./plugin_pb");
const proto: typeof providerTypes = fromPulumi("./provider_pb");
const service: typeof serviceTypes = fromPulumi("./provider_grpc_pb");
const status: typeof statusTypes = fromPulumi("./status_pb");

/** The methods served; the rest answer UNIMPLEMENTED. */
type Served = Pick<
  serviceTypes.IResourceProviderServer,
  | "getPluginInfo"
  | "getSchema"
  | "attach"
  | "cancel"
  | "checkConfig"
  | "diffConfig"
  | "configure"
  | "check"
  | "diff"
  | "create"
  | "read"
  | "update"
  | "delete"
  | "invoke"
>;

const KIND: Record<PropertyChange, providerTypes.PropertyDiff.Kind> = {
  add: proto.PropertyDiff.Kind.ADD,
  "add-replace": proto.PropertyDiff.Kind.ADD_REPLACE,
  delete: proto.PropertyDiff.Kind.DELETE,
  "delete-replace": proto.PropertyDiff.Kind.DELETE_REPLACE,
  update: proto.PropertyDiff.Kind.UPDATE,
  "update-replace": proto.PropertyDiff.Kind.UPDATE_REPLACE,
};

/** A protobuf Struct of a JSON value (undefined members dropped, as JSON drops them). */
function struct(value: unknown): structTypes.Struct {
  return Struct.fromJavaScript(JSON.parse(JSON.stringify(value ?? {})));
}

const plain = (s: structTypes.Struct | undefined): Record<string, unknown> => s?.toJavaScript() ?? {};

/** A failure as the engine reads it; a partial create carries what was made (ErrorResourceInitFailed). */
function grpcError(err: unknown): Partial<grpcTypes.StatusObject> {
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof ReconfigureRefusedError)
    return { code: grpc.status.FAILED_PRECONDITION, details: message };
  if (!(err instanceof PartialCreateError)) return { code: grpc.status.UNKNOWN, details: message };
  const detail = new proto.ErrorResourceInitFailed();
  detail.setId(err.id);
  detail.setProperties(struct(err.properties));
  detail.setReasonsList(err.reasons);
  const any = new Any();
  any.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
  const s = new status.Status();
  s.setCode(grpc.status.UNKNOWN);
  s.setMessage(message);
  s.addDetails(any);
  const metadata = new grpc.Metadata();
  // The engine reads structured details from this header (grpc-js has no first-class support).
  metadata.add("grpc-status-details-bin", Buffer.from(s.serializeBinary()));
  return { code: grpc.status.UNKNOWN, details: message, metadata };
}

/** One unary method: the answer or the failure, never an unhandled rejection. */
function unary<Req, Res>(fn: (req: Req) => Promise<Res>): grpcTypes.handleUnaryCall<Req, Res> {
  return (call, callback) => {
    fn(call.request).then(
      (res) => callback(null, res),
      (err: unknown) => callback(grpcError(err), null),
    );
  };
}

type Failures = readonly { property: string; reason: string }[] | undefined;

const failureList = (failures: Failures): providerTypes.CheckFailure[] =>
  (failures ?? []).map((f) => new proto.CheckFailure().setProperty(f.property).setReason(f.reason));

function checkResponse(result: { inputs?: unknown; failures?: Failures }): providerTypes.CheckResponse {
  return new proto.CheckResponse()
    .setInputs(struct(result.inputs))
    .setFailuresList(failureList(result.failures));
}

function diffResponse(result: DetailedDiffResult): providerTypes.DiffResponse {
  const resp = new proto.DiffResponse();
  resp.setChanges(
    result.changes ? proto.DiffResponse.DiffChanges.DIFF_SOME : proto.DiffResponse.DiffChanges.DIFF_NONE,
  );
  resp.setReplacesList(result.replaces);
  resp.setDeletebeforereplace(result.deleteBeforeReplace === true);
  resp.setDiffsList(Object.keys(result.detailedDiff));
  resp.setHasdetaileddiff(true);
  const map = resp.getDetaileddiffMap();
  for (const [k, how] of Object.entries(result.detailedDiff)) {
    const d = new proto.PropertyDiff();
    d.setKind(KIND[how]);
    d.setInputdiff(true);
    map.set(k, d);
  }
  return resp;
}

/** The service's methods over a provider. */
export function serviceOf(provider: NativeProvider): Served {
  return {
    getPluginInfo: unary(async () => new plugin.PluginInfo().setVersion(provider.version)),
    getSchema: unary(async (req: providerTypes.GetSchemaRequest) => {
      if (req.getVersion() !== 0) throw new Error(`unsupported schema version ${req.getVersion()}`);
      return new proto.GetSchemaResponse().setSchema(await provider.getSchema());
    }),
    attach: unary(async () => new Empty()),
    cancel: unary(async () => new Empty()),
    checkConfig: unary(async (req: providerTypes.CheckRequest) =>
      checkResponse(await provider.checkConfig(req.getUrn(), plain(req.getOlds()), plain(req.getNews()))),
    ),
    diffConfig: unary(async (req: providerTypes.DiffRequest) =>
      diffResponse(
        await provider.diffConfig(
          req.getUrn(),
          plain(req.getOldInputs() ?? req.getOlds()),
          plain(req.getNews()),
        ),
      ),
    ),
    configure: unary(async (req: providerTypes.ConfigureRequest) => {
      await provider.configure(Object.fromEntries(req.getVariablesMap().entries()));
      // Secrets arrive wrapped and leave wrapped; no resource references or output values.
      return new proto.ConfigureResponse().setAcceptsecrets(true);
    }),
    check: unary(async (req: providerTypes.CheckRequest) =>
      checkResponse(await provider.check(req.getUrn(), plain(req.getOlds()), plain(req.getNews()))),
    ),
    diff: unary(async (req: providerTypes.DiffRequest) =>
      diffResponse(
        await provider.diff(req.getId(), req.getUrn(), plain(req.getOlds()), plain(req.getNews())),
      ),
    ),
    create: unary(async (req: providerTypes.CreateRequest) => {
      const result = await provider.create(req.getUrn(), plain(req.getProperties()));
      return new proto.CreateResponse().setId(result.id).setProperties(struct(result.outs));
    }),
    read: unary(async (req: providerTypes.ReadRequest) => {
      const result = await provider.read(
        req.getId(),
        req.getUrn(),
        plain(req.getProperties()),
        plain(req.getInputs()),
      );
      const resp = new proto.ReadResponse().setId(result.id ?? "");
      // No properties at all: the object is gone.
      if (result.id) resp.setProperties(struct(result.props)).setInputs(struct(result.inputs));
      return resp;
    }),
    update: unary(async (req: providerTypes.UpdateRequest) => {
      const result = await provider.update(
        req.getId(),
        req.getUrn(),
        plain(req.getOlds()),
        plain(req.getNews()),
      );
      return new proto.UpdateResponse().setProperties(struct(result.outs));
    }),
    delete: unary(async (req: providerTypes.DeleteRequest) => {
      await provider.delete(req.getId(), req.getUrn(), plain(req.getProperties()));
      return new Empty();
    }),
    invoke: unary(async (req: providerTypes.InvokeRequest) => {
      const result = await provider.invoke(req.getTok(), plain(req.getArgs()));
      const resp = new proto.InvokeResponse();
      if (result.outputs !== undefined) resp.setReturn(struct(result.outputs));
      return resp.setFailuresList(failureList(result.failures));
    }),
  };
}

/**
 * Serves the provider on a loopback port and prints the port, which is how the engine finds a
 * plugin. Answers the server so a test can stop it.
 */
export async function serve(provider: NativeProvider): Promise<{ port: number; server: grpcTypes.Server }> {
  const server = new grpc.Server({ "grpc.max_receive_message_length": 1024 * 1024 * 400 });
  server.addService(service.ResourceProviderService, serviceOf(provider));
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) =>
      err ? reject(err) : resolve(p),
    ),
  );
  return { port, server };
}
