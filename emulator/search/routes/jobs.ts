/** An instance's sync jobs: start, list, read, cancel, and a job's logs. */
import { z } from "zod";
import { answer, orEmpty } from "../../define";
import { pageFields, pageOf, type PageRule } from "../../paging";
import {
  CancelJobBodySchema,
  CreateJobBodySchema,
  JobListQuerySchema,
  JobLogListQuerySchema,
  SearchJobLogSchema,
  SearchJobSchema,
} from "../../../sdk/schemas/search";
import { jobView, jobViews, logViews } from "../views";
import * as G from "../../../sdk/generated/search";
import { under, type SearchArea } from "./context";

/** `per_page` of each listing as the contract gives it (0 is the default size). */
const JOB_PAGES: PageRule = { min: 0, max: 50, default: 20 };
const JOB_LOG_PAGES: PageRule = { min: 0, max: 500, default: 20 };

export function jobRoutes(area: SearchArea, base: string): void {
  area.post(
    `${base}/:id/jobs`,
    {
      params: under(base, G.AiSearchInstanceCreateJobPath, G.AiSearchNamespaceInstanceCreateJobPath),
      // Spec F: "no body". Left absent (not `{}`), so what was received is what is recorded.
      body: CreateJobBodySchema.optional(),
      response: SearchJobSchema,
      permissions: "instances",
    },
    ({ auth: { model, ns }, params, body }) => {
      const inst = model.instance(ns, params.id);
      return jobView(model, inst, model.createJob(inst, body?.description));
    },
  );

  area.get(
    `${base}/:id/jobs`,
    {
      querystring: JobListQuerySchema.extend(pageFields(JOB_PAGES)),
      params: under(base, G.AiSearchInstanceListJobsPath, G.AiSearchNamespaceInstanceListJobsPath),
      response: z.array(SearchJobSchema),
      permissions: "instances",
    },
    ({ auth: { model, ns }, params, query }) => {
      const page = pageOf(jobViews(model, model.instance(ns, params.id)), query, JOB_PAGES);
      return answer(page.items, { resultInfo: page.resultInfo });
    },
  );

  area.get(
    `${base}/:id/jobs/:job_id`,
    {
      params: under(base, G.AiSearchInstanceGetJobPath, G.AiSearchNamespaceInstanceGetJobPath),
      response: SearchJobSchema,
      permissions: "instances",
    },
    ({ auth: { model, ns }, params }) => {
      const inst = model.instance(ns, params.id);
      return jobView(model, inst, model.job(inst, params.job_id));
    },
  );

  area.patch(
    `${base}/:id/jobs/:job_id`,
    {
      params: under(
        base,
        G.AiSearchInstanceChangeJobStatusPath,
        G.AiSearchNamespaceInstanceChangeJobStatusPath,
      ),
      body: orEmpty(CancelJobBodySchema),
      response: SearchJobSchema,
      permissions: "instances",
    },
    ({ auth: { model, ns }, params }) => {
      const inst = model.instance(ns, params.id);
      return jobView(model, inst, model.cancelJob(inst, params.job_id));
    },
  );

  area.get(
    `${base}/:id/jobs/:job_id/logs`,
    {
      querystring: JobLogListQuerySchema.extend(pageFields(JOB_LOG_PAGES)),
      params: under(base, G.AiSearchInstanceListJobLogsPath, G.AiSearchNamespaceInstanceListJobLogsPath),
      response: z.array(SearchJobLogSchema),
      permissions: "instances",
    },
    ({ auth: { model, ns }, params, query }) => {
      const inst = model.instance(ns, params.id);
      const page = pageOf(logViews(model, inst, model.job(inst, params.job_id)), query, JOB_LOG_PAGES);
      return answer(page.items, { resultInfo: page.resultInfo });
    },
  );
}
