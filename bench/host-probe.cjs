/**
 * Loaded into every Node process the engine starts during a bench run (NODE_OPTIONS=--require), and
 * active only in the dynamic-provider host (and in the plugin script's `node -e` that finds it, whose
 * start is the plugin's start). Appends one JSON line per fact to $BENCH_PROBE_FILE:
 * - `start`: when this process began (performance.timeOrigin, epoch ms);
 * - `listening`: when the host's gRPC server was bound (the engine can talk to it from then on);
 * - `rpc`: each answered call, its method, the resource type it concerned, and when it began and ended.
 * Plain CommonJS with no dependency, so that it costs ours and the floor alike and loads before
 * anything else; it patches the host's own copy of @grpc/grpc-js as that copy is loaded.
 */
"use strict";
const fs = require("node:fs");
const Module = require("node:module");

const file = process.env.BENCH_PROBE_FILE;
const script = process.argv[1] || "";
const isHost = /dynamic-provider/.test(script);
// The plugin script first runs `node -e "…resolve('@pulumi/pulumi/cmd/dynamic-provider')"`.
const isResolver = !isHost && process.execArgv.some((a) => /dynamic-provider/.test(a));

const now = () => performance.timeOrigin + performance.now();
const record = (fact) => {
  try {
    fs.appendFileSync(file, `${JSON.stringify({ pid: process.pid, ...fact })}\n`);
  } catch {
    // a probe never fails the run it measures
  }
};

if (file && (isHost || isResolver)) {
  record({ fact: "start", role: isHost ? "host" : "resolver", at: performance.timeOrigin });
}

if (file && isHost) {
  const load = Module._load;
  let patched = false;
  Module._load = function probeLoad(request, parent, isMain) {
    const exported = load.call(this, request, parent, isMain);
    if (!patched && request === "@grpc/grpc-js" && exported && exported.Server) {
      patched = true;
      patch(exported.Server.prototype);
    }
    return exported;
  };
}

function typeOf(call) {
  try {
    const req = call && call.request;
    const urn = req && typeof req.getUrn === "function" ? req.getUrn() : "";
    // urn:pulumi:<stack>::<project>::<type>::<name>
    const parts = urn.split("::");
    return parts.length >= 3 ? parts[2].split(":").pop() : "";
  } catch {
    return "";
  }
}

function patch(proto) {
  const addService = proto.addService;
  proto.addService = function probeAddService(service, impl) {
    const wrapped = {};
    for (const [name, attrs] of Object.entries(service)) {
      const key = typeof impl[name] === "function" ? name : attrs.originalName;
      const method = impl[key];
      if (typeof method !== "function") continue;
      const rpc = (call, callback) => {
        const t0 = now();
        const type = typeOf(call);
        return method.call(impl, call, (err, res) => {
          record({ fact: "rpc", method: name, type, t0, t1: now(), ok: !err });
          callback(err, res);
        });
      };
      wrapped[name] = rpc;
      if (attrs.originalName) wrapped[attrs.originalName] = rpc;
    }
    return addService.call(this, service, wrapped);
  };
  const bindAsync = proto.bindAsync;
  proto.bindAsync = function probeBindAsync(address, creds, callback) {
    return bindAsync.call(this, address, creds, (err, port) => {
      record({ fact: "listening", at: now() });
      callback(err, port);
    });
  };
}
