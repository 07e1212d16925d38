/** The provider object of each kind: each is its module's `exports` (see core/shim.ts). */
import type { KindShim } from "../core/shim";
import type { ProviderKind } from "../types";
import BuildRun = require("./build-run");
import BuildTrigger = require("./build-trigger");
import ConfigRule = require("./config-rule");
import DomainRegistration = require("./domain-registration");
import EmailSend = require("./email-send");
import MeetingTemplate = require("./meeting-template");
import RepoConnection = require("./repo-connection");
import SearchInstance = require("./search-instance");
import SyncJobRun = require("./sync-job-run");
import TriggerEnvVars = require("./trigger-env-vars");
import ZoneContentConverter = require("./zone-content-converter");

export const SHIMS: Readonly<Record<ProviderKind, KindShim>> = {
  BuildTrigger,
  TriggerEnvVars,
  RepoConnection,
  ZoneContentConverter,
  ConfigRule,
  MeetingTemplate,
  DomainRegistration,
  SearchInstance,
  BuildRun,
  EmailSend,
  SyncJobRun,
};
