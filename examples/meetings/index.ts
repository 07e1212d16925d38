/**
 * Meetings: a recorded all-hands template. Recording starts with the meeting and goes to your own S3
 * bucket with credentials taken from secret stack config (they stay secrets in state and outputs; a
 * rotated credential shows as a change through a hash); the transcript and a summary are made at the
 * end. Destroy sets the meeting INACTIVE, since the API cannot delete one (the output says so).
 *
 * Run: `npx mocha tests/e2e/examples.test.ts` (after `npm run build`) runs it against the emulator.
 * In your own Pulumi project: import from `pulumi-account-api/provider` instead of `../../provider`,
 * `pulumi config set --secret recordingAccessKey …`, `pulumi config set --secret recordingSecretKey …`,
 * optionally `pulumi config set recordingBucket …`, then `pulumi up`. On the real account the app is
 * made in the dashboard; the emulator accepts any app id, so `seed` only names it.
 */
import * as pulumi from "@pulumi/pulumi";
import type { RunningEmulator } from "../../emulator/server";
import { MeetingTemplate } from "../../provider";
import type { AccountApi } from "../../sdk";

export interface Seeded {
  appId: string;
}

export async function seed(
  _api: AccountApi,
  _em: Pick<RunningEmulator, "origin" | "accountId">,
): Promise<Seeded> {
  return { appId: "company-meetings" };
}

export async function program(seeded: Seeded): Promise<Record<string, unknown>> {
  const config = new pulumi.Config();

  const allHands = new MeetingTemplate("all-hands", {
    appId: seeded.appId,
    title: "All hands",
    recordOnStart: true,
    persistChat: true,
    transcribeOnEnd: true,
    summarizeOnEnd: true,
    sessionKeepAliveTimeInSecs: 300,
    aiConfig: { summarization: { summaryType: "team_meeting", textFormat: "markdown", wordLimit: 500 } },
    recordingConfig: {
      maxSeconds: 7200,
      fileNamePrefix: "all-hands",
      videoConfig: { codec: "H264", width: 1920, height: 1080 },
      storageConfig: {
        type: "aws",
        bucket: config.get("recordingBucket") ?? "acme-meeting-recordings",
        region: "eu-west-1",
        path: "all-hands/",
        accessKey: config.requireSecret("recordingAccessKey"),
        secret: config.requireSecret("recordingSecretKey"),
      },
    },
  });

  return {
    meetingId: allHands.meetingId,
    status: allHands.status,
    credentialsHash: allHands.storageCredentialsHash,
  };
}
