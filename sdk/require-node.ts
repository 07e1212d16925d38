/**
 * Stops an import on Node older than 22 with a message that says so. The entry points import this
 * first: undici 8 and @pulumi/pulumi >= 3.249 need Node 22, and on Node 20 undici fails at load with an
 * unrelated-looking TypeError. Kept free of imports so it runs before anything else loads.
 */
const MINIMUM_NODE_MAJOR = 22;
const major = Number(process.versions.node.split(".")[0]);
if (!(major >= MINIMUM_NODE_MAJOR)) {
  throw new Error(
    `pulumi-account-api needs Node ${MINIMUM_NODE_MAJOR} or later; this is Node ${process.versions.node}. ` +
      `Install Node ${MINIMUM_NODE_MAJOR}+ (for a Pulumi project, the node on PATH when you run \`pulumi up\`).`,
  );
}
export {};
