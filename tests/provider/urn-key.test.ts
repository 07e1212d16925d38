import { strict as assert } from "node:assert";
import { keyOfUrn, parentTypes, urnOf } from "../../provider/core/urn-key";

/** A resource as the SDK's bookkeeping shows it: its type and its parent. */
const res = (type: string, parent?: object): object => ({ __pulumiType: type, __parentResource: parent });

describe("urn-key: the key a resource keeps whatever its state lost", () => {
  const stackRes = res("pulumi:pulumi:Stack");
  const T = "pulumi-nodejs:dynamic/account-api:ConfigRule";

  it("builds the URN the engine gives: top-level resources have no parent type, children chain theirs", () => {
    assert.equal(urnOf("dev", "proj", T, "docs"), `urn:pulumi:dev::proj::${T}::docs`);
    assert.equal(urnOf("dev", "proj", T, "docs", stackRes), `urn:pulumi:dev::proj::${T}::docs`);
    const site = res("acme:web:Site", stackRes);
    const zone = res("acme:web:Zone", site);
    assert.deepEqual(parentTypes(zone), ["acme:web:Site", "acme:web:Zone"]);
    assert.equal(
      urnOf("dev", "proj", T, "docs", zone),
      `urn:pulumi:dev::proj::acme:web:Site$acme:web:Zone$${T}::docs`,
    );
  });

  it("gives 16 hex characters, the same for the same URN and different for another stack, parent or name", () => {
    const key = keyOfUrn(urnOf("dev", "proj", T, "docs"));
    assert.match(key, /^[0-9a-f]{16}$/);
    assert.equal(keyOfUrn(urnOf("dev", "proj", T, "docs")), key);
    const others = [
      urnOf("prod", "proj", T, "docs"),
      urnOf("dev", "other", T, "docs"),
      urnOf("dev", "proj", T, "docs2"),
      urnOf("dev", "proj", T, "docs", res("acme:web:Site")),
    ].map(keyOfUrn);
    assert.equal(new Set([key, ...others]).size, 5);
  });
});
