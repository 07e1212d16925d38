import { strict as assert } from "node:assert";
import * as pulumi from "@pulumi/pulumi";
import { sendEmail, toSendEmailParams } from "../../provider/functions/email";
import { useEmulator } from "../helpers/emulator";

const mocks: pulumi.runtime.Mocks = {
  newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }),
  call: (args) => args.inputs,
};

function valueOf<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply((v) => resolve(v)));
}

const ENV_KEYS = ["ACCOUNT_API_BASE_URL", "ACCOUNT_API_TOKEN", "ACCOUNT_API_ACCOUNT_ID"] as const;

describe("sendEmail function", () => {
  it("maps camelCase inputs to the send body, keeping header names as written", () => {
    assert.deepEqual(
      toSendEmailParams({
        accountId: "acct",
        from: { address: "a@example.com", name: "A" },
        to: ["b@dest.test", { address: "c@dest.test", name: "C" }],
        cc: { address: "d@dest.test" },
        replyTo: "r@example.com",
        subject: "S",
        text: "T",
        headers: { "X-Campaign_Id": "1", "In-Reply-To": "<x@y>" },
        attachments: [
          { content: "aGk=", filename: "l.png", type: "image/png", disposition: "inline", contentId: "logo" },
        ],
      }),
      {
        accountId: "acct",
        from: { address: "a@example.com", name: "A" },
        to: ["b@dest.test", { address: "c@dest.test", name: "C" }],
        cc: { address: "d@dest.test" },
        reply_to: "r@example.com",
        subject: "S",
        text: "T",
        headers: { "X-Campaign_Id": "1", "In-Reply-To": "<x@y>" },
        attachments: [
          {
            content: "aGk=",
            filename: "l.png",
            type: "image/png",
            disposition: "inline",
            content_id: "logo",
          },
        ],
      },
    );
  });

  describe("in a program", () => {
    const fx = useEmulator();
    const saved: Record<string, string | undefined> = {};

    beforeEach(async () => {
      for (const k of ENV_KEYS) saved[k] = process.env[k];
      process.env.ACCOUNT_API_BASE_URL = fx.em.url;
      process.env.ACCOUNT_API_TOKEN = fx.em.token;
      process.env.ACCOUNT_API_ACCOUNT_ID = fx.em.accountId;
      const res = await fx.http("PUT", `/__emulator/email/accounts/${fx.em.accountId}/domains/example.com`, {
        body: {},
      });
      assert.equal(res.status, 200);
    });
    afterEach(() => {
      for (const k of ENV_KEYS) {
        if (saved[k] === undefined) delete process.env[k];
        else process.env[k] = saved[k];
      }
    });

    const args = {
      from: "news@example.com",
      to: pulumi.output(["ada@dest.test", "bounce@dest.test"]),
      subject: pulumi.output("Deployed"),
      text: "done",
    };

    it("sends nothing on preview, where its output is unknown until the up", async () => {
      await pulumi.runtime.setMocks(mocks, "proj", "stack", true);
      // `isKnown` is the SDK's own (not in its typings): false is what a preview shows as `output<…>`.
      assert.equal(await Reflect.get(sendEmail(args), "isKnown"), false);
      assert.equal(fx.em.requestLog.filter((r) => r.url.includes("/email/sending")).length, 0);
    });

    it("sends on up and resolves to the per-recipient outcome", async () => {
      await pulumi.runtime.setMocks(mocks, "proj", "stack", false);
      const result = await valueOf(sendEmail(args));
      assert.deepEqual(result?.delivered, ["ada@dest.test"]);
      assert.deepEqual(result?.permanentBounces, ["bounce@dest.test"]);
      const outbox = await fx.http("GET", `/__emulator/email/accounts/${fx.em.accountId}/outbox`);
      assert.equal((outbox.json as { result: unknown[] }).result.length, 1);
    });

    it("fails the update with the field and rule of a bad message, sending nothing", async () => {
      await pulumi.runtime.setMocks(mocks, "proj", "stack", false);
      const out = sendEmail({ ...args, to: "not-an-address" });
      const err = await new Promise<unknown>((resolve) => {
        out.apply((v) => resolve(v));
        process.once("unhandledRejection", (e) => resolve(e));
      });
      assert.match(String(err), /sendEmail: to: must be an email address/);
      assert.equal(fx.em.requestLog.filter((r) => r.url.includes("/email/sending")).length, 0);
    });
  });
});
