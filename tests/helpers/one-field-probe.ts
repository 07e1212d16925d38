/**
 * Run inside a copy of the project (tests/e2e/one-field.test.ts): what each face makes of the
 * search instance's `ai_gateway_id` there. Prints one JSON line: the sdk's refusal of a string (before
 * any request), the emulator's answer to a number, the resource's check of a string, and the native
 * schema's type of the input.
 */
import { ValidationError } from "../../sdk/errors";
import { AccountApi } from "../../sdk";
import { startEmulator } from "../../emulator/server";
import { SearchInstanceSpec } from "../../provider/resources/search-instance/spec";
import { providerSchema } from "../../provider/native/schema";

async function main(): Promise<void> {
  const em = await startEmulator({ env: {} });
  const requests: string[] = [];
  try {
    const api = new AccountApi({
      baseUrl: em.url,
      token: em.token,
      accountId: em.accountId,
      env: {},
      onEvent: (e) => {
        if (e.type === "request") requests.push(e.url);
      },
    });
    /** What the sdk makes of a body: the refusal's message, or "" when the emulator took it. */
    const attempt = async (json: string) => {
      try {
        const made = await api.search.instances.create({}, JSON.parse(json));
        return { refusal: "", answer: made.ai_gateway_id };
      } catch (e) {
        return { refusal: e instanceof ValidationError ? e.message : `not a ValidationError: ${String(e)}` };
      }
    };
    // JSON: the probe runs against copies whose contract types the field otherwise than this one's.
    const asString = await attempt('{"id":"probe-a","ai_gateway_id":"gateway"}');
    const sentForString = requests.length;
    const asNumber = await attempt('{"id":"probe-b","ai_gateway_id":7}');
    const check = SearchInstanceSpec.inputSchema.safeParse({ instanceId: "probe-c", aiGatewayId: "gateway" });
    const schema = providerSchema("0.0.0");
    const input = schema.resources["account-api:index:SearchInstance"]?.inputProperties?.aiGatewayId;
    console.log(
      JSON.stringify({
        sdkRefusalOfString: asString.refusal,
        sentForString,
        sdkRefusalOfNumber: asNumber.refusal,
        emulatorAnswer: asNumber.answer,
        resourceCheck: check.success
          ? "accepted"
          : check.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`),
        nativeType: input?.type,
      }),
    );
  } finally {
    await em.stop();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
