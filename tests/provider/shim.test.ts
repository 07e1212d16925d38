import { strict as assert } from "node:assert";
import * as pulumi from "@pulumi/pulumi";
import { dynamicProvider } from "../../provider/shim";
import { RESOURCE_KINDS } from "../../provider/types";

describe("serialized provider shim", () => {
  for (const kind of RESOURCE_KINDS) {
    it(`${kind}: serializes small, loads the installed runtime, and captures nothing else`, async () => {
      const provider = dynamicProvider(kind);
      const serialized = await pulumi.runtime.serializeFunction(() => provider, { allowSecrets: false });
      const text = serialized.text;
      assert.ok(text.length < 3000, `serialized provider is ${text.length} bytes`);
      assert.ok(text.includes('require("pulumi-account-api/provider/runtime")'));
      assert.ok(text.includes(JSON.stringify(kind)) || text.includes(`'${kind}'`));
      assert.ok(!/undici|zod|Agent/.test(text), "no client or schema is captured");
      assert.equal(serialized.containsSecrets, false);
    });
  }
});
