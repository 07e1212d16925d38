/**
 * A throw-away PostgreSQL cluster for tests: `initdb` and `pg_ctl` on a temporary folder, listening
 * on a free loopback port (and a unix socket inside that folder), password authentication for one
 * role. Tests may run as root, which `initdb` refuses: then every server command runs as the
 * `postgres` OS user through `runuser`, and the folder is handed to that user.
 *
 * The binaries come from Debian's `postgresql` package (/usr/lib/postgresql/<major>/bin), or from
 * PATH; `findPostgresBin()` answers undefined when neither has them (the suite then skips).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";

export interface PostgresCluster {
  /** `postgres://user:pass@127.0.0.1:port/db?sslmode=disable`, what `pulumi login` takes. */
  url: string;
  port: number;
  user: string;
  password: string;
  database: string;
  /** Runs SQL through psql and answers its unaligned, tuples-only output. */
  sql(query: string): string;
  stop(): void;
}

/** The folder holding initdb, pg_ctl and psql, or undefined when PostgreSQL is not installed. */
export function findPostgresBin(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (existsSync(root)) {
    const majors = readdirSync(root)
      .filter((d) => /^\d+$/.test(d))
      .sort((a, b) => Number(b) - Number(a));
    for (const major of majors) {
      const bin = join(root, major, "bin");
      if (existsSync(join(bin, "initdb"))) return bin;
    }
  }
  const which = spawnSync("sh", ["-c", "command -v initdb"], { encoding: "utf8" });
  const found = which.stdout.trim();
  return which.status === 0 && found ? join(found, "..") : undefined;
}

/** A port the kernel just handed out on loopback (free at the time of asking). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

const isRoot = (): boolean => userInfo().uid === 0;

/** Runs a PostgreSQL binary as an unprivileged user (the `postgres` OS user when we are root). */
function runAs(bin: string, tool: string, args: string[], env: NodeJS.ProcessEnv = {}): string {
  const exe = join(bin, tool);
  const [file, argv] = isRoot() ? ["runuser", ["-u", "postgres", "--", exe, ...args]] : [exe, args];
  return execFileSync(file, argv, {
    encoding: "utf8",
    env: { ...process.env, LC_ALL: "C", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** Starts a fresh cluster; call `stop()` when done (it also removes the folder). */
export async function startPostgres(
  opts: { user?: string; password?: string; database?: string } = {},
): Promise<PostgresCluster> {
  const bin = findPostgresBin();
  if (!bin) throw new Error("PostgreSQL is not installed (apt-get install -y postgresql)");
  const user = opts.user ?? "pulumi";
  const password = opts.password ?? `pw-${process.pid}-${Date.now().toString(36)}`;
  const database = opts.database ?? "pulumi";
  const root = mkdtempSync(join(tmpdir(), "pg-test-"));
  const data = join(root, "data");
  const pwfile = join(root, "pwfile");
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (isRoot()) {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    chownSync(root, uid, gid);
    chownSync(pwfile, uid, gid);
  }
  chmodSync(root, 0o700);
  const port = await freePort();
  runAs(bin, "initdb", [
    "-D",
    data,
    "-U",
    user,
    `--pwfile=${pwfile}`,
    "--auth=scram-sha-256",
    "--encoding=UTF8",
    "--no-instructions",
  ]);
  const serverOptions = `-c listen_addresses=127.0.0.1 -p ${port} -c unix_socket_directories=${root} -c fsync=off`;
  runAs(bin, "pg_ctl", ["-D", data, "-o", serverOptions, "-l", join(root, "server.log"), "-w", "start"]);
  const pgEnv = { PGPASSWORD: password, PGHOST: "127.0.0.1", PGPORT: String(port), PGUSER: user };
  const stop = (): void => {
    try {
      runAs(bin, "pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  };
  try {
    runAs(bin, "createdb", [database], pgEnv);
  } catch (err) {
    stop();
    throw err;
  }
  const sql = (query: string): string =>
    runAs(bin, "psql", ["-d", database, "-v", "ON_ERROR_STOP=1", "-At", "-c", query], pgEnv);
  return {
    url: `postgres://${user}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}?sslmode=disable`,
    port,
    user,
    password,
    database,
    sql,
    stop,
  };
}
