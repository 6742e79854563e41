import fs from 'node:fs/promises';
import path from 'node:path';
import {
  type Advisory,
  VULNERABILITY_MESSAGES,
  type VulnerabilityReport,
  type VulnerablePackage,
} from '@gdb/shared/sdk/sdk-report.schemas';
import semver from 'semver';
import { z } from 'zod';
import { errorMessage } from '../../platform/error-message.ts';

/** Largest advisory set read (a file, a URL's answer, a folder's files together). */
const MAX_BYTES = 256 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 30_000;

/** The parts of an OSV entry (https://ossf.github.io/osv-schema/) the check reads; the rest is ignored. */
const osvEntrySchema = z.object({
  id: z.string(),
  summary: z.string().optional(),
  details: z.string().optional(),
  aliases: z.array(z.string()).optional(),
  severity: z.array(z.object({ type: z.string(), score: z.string() })).optional(),
  database_specific: z.object({ severity: z.string().optional() }).passthrough().optional(),
  references: z.array(z.object({ url: z.string() }).passthrough()).optional(),
  affected: z
    .array(
      z.object({
        package: z.object({ ecosystem: z.string(), name: z.string() }).passthrough().optional(),
        ranges: z
          .array(
            z.object({
              type: z.string(),
              events: z.array(
                z.object({
                  introduced: z.string().optional(),
                  fixed: z.string().optional(),
                  last_affected: z.string().optional(),
                }),
              ),
            }),
          )
          .optional(),
        versions: z.array(z.string()).optional(),
      }),
    )
    .optional(),
});
type OsvEntry = z.infer<typeof osvEntrySchema>;
type Affected = NonNullable<OsvEntry['affected']>[number];

/** The advisory set as last read: npm advisories by package name. */
interface AdvisorySet {
  source: string | null;
  byPackage: Map<string, OsvEntry[]>;
  count: number;
  readAt: string | null;
  error: string | null;
}

/** The OSV entries a text holds: one entry, an array of them, or an object holding them under `vulns`. */
function entriesOf(text: string): unknown[] {
  const value: unknown = JSON.parse(text);
  if (Array.isArray(value)) return value;
  if (value && typeof value === 'object' && 'vulns' in value && Array.isArray(value.vulns)) return value.vulns;
  return [value];
}

async function readSource(source: string): Promise<string[]> {
  if (/^https?:\/\//i.test(source)) {
    const answer = await fetch(source, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: 'follow' });
    if (!answer.ok) throw new Error(`${source} answered ${answer.status}`);
    const declared = Number(answer.headers.get('content-length'));
    if (declared > MAX_BYTES) throw new Error(`${source} is larger than ${MAX_BYTES / 1024 / 1024} MiB`);
    const text = await answer.text();
    if (text.length > MAX_BYTES) throw new Error(`${source} is larger than ${MAX_BYTES / 1024 / 1024} MiB`);
    return [text];
  }
  const stat = await fs.stat(source);
  const files = stat.isDirectory()
    ? (await fs.readdir(source)).filter((f) => f.endsWith('.json')).map((f) => path.join(source, f))
    : [source];
  let total = 0;
  const texts: string[] = [];
  for (const file of files) {
    total += (await fs.stat(file)).size;
    if (total > MAX_BYTES) throw new Error(`${source} is larger than ${MAX_BYTES / 1024 / 1024} MiB`);
    texts.push(await fs.readFile(file, 'utf8'));
  }
  return texts;
}

/** Reads an OSV advisory set and keeps its npm entries by package name; an entry not in OSV form is skipped. */
async function readAdvisories(source: string): Promise<AdvisorySet> {
  const byPackage = new Map<string, OsvEntry[]>();
  let count = 0;
  for (const text of await readSource(source)) {
    for (const raw of entriesOf(text)) {
      const parsed = osvEntrySchema.safeParse(raw);
      if (!parsed.success) continue;
      const names = new Set((parsed.data.affected ?? []).filter(isNpm).map((a) => a.package?.name ?? ''));
      if (names.size > 0) count += 1;
      for (const name of names) byPackage.set(name, [...(byPackage.get(name) ?? []), parsed.data]);
    }
  }
  return { source, byPackage, count, readAt: new Date().toISOString(), error: null };
}

const isNpm = (a: Affected) => a.package?.ecosystem.toLowerCase() === 'npm';

/** Whether a version falls in an OSV range: after an `introduced`, before the `fixed` (or up to the `last_affected`) that follows it. */
function inRange(version: string, events: { introduced?: string; fixed?: string; last_affected?: string }[]): boolean {
  let affected = false;
  const after = (v: string) => v === '0' || (semver.valid(v) !== null && semver.gte(version, v));
  for (const e of events) {
    if (e.introduced !== undefined && after(e.introduced)) affected = true;
    if (e.fixed !== undefined && semver.valid(e.fixed) && semver.gte(version, e.fixed)) affected = false;
    if (e.last_affected !== undefined && semver.valid(e.last_affected) && semver.gt(version, e.last_affected)) affected = false;
  }
  return affected;
}

/** The first fixed version a matching range names for this version, if any. */
function fixedFor(version: string, a: Affected): string | null {
  for (const range of a.ranges ?? []) {
    if (!inRange(version, range.events)) continue;
    const fixed = range.events.map((e) => e.fixed).find((f) => f && semver.valid(f) && semver.gt(f, version));
    if (fixed) return fixed;
  }
  return null;
}

function affects(entry: OsvEntry, name: string, version: string): Affected | null {
  for (const a of entry.affected ?? []) {
    if (!isNpm(a) || a.package?.name !== name) continue;
    if (a.versions?.includes(version)) return a;
    if ((a.ranges ?? []).some((r) => (r.type === 'SEMVER' || r.type === 'ECOSYSTEM') && inRange(version, r.events))) return a;
  }
  return null;
}

function advisoryOf(entry: OsvEntry, version: string, a: Affected): Advisory {
  const severity = entry.database_specific?.severity ?? entry.severity?.[0]?.score ?? null;
  return {
    id: entry.id,
    summary: entry.summary ?? entry.details?.split('\n')[0] ?? '',
    severity,
    aliases: entry.aliases ?? [],
    fixed: fixedFor(version, a),
    url: entry.references?.[0]?.url ?? null,
  };
}

/**
 * The vulnerability check (docs/product.md §17): the operator's OSV advisory set (SDK_ADVISORIES,
 * a file, a folder of files or an http(s) URL), read on first use and again on demand, and matched
 * against the exact versions of an SDK function's modules.
 */
export function advisoryCheck(source: string | undefined) {
  let current: Promise<AdvisorySet> | null = null;

  function load(): Promise<AdvisorySet> {
    if (!source) {
      return Promise.resolve({
        source: null,
        byPackage: new Map(),
        count: 0,
        readAt: null,
        error: 'no advisory set is configured (SDK_ADVISORIES)',
      });
    }
    return readAdvisories(source).catch((error: unknown) => ({
      source,
      byPackage: new Map(),
      count: 0,
      readAt: null,
      error: `${source} could not be read: ${errorMessage(error)}`,
    }));
  }

  return {
    /** The report of these modules; `refresh` reads the advisory set again first ('Recheck for vulnerabilities'). */
    async report(
      id: string,
      modules: readonly { name: string; version: string }[],
      refresh: boolean,
    ): Promise<VulnerabilityReport> {
      if (!current || refresh) current = load();
      const set = await current;
      const advisories = { source: set.source, count: set.count, readAt: set.readAt };
      const base = { _id: id, modules: modules.map((m) => ({ name: m.name, version: m.version })), advisories };
      if (set.error) {
        return {
          ...base,
          checked: false,
          vulnerable: [],
          message: `${VULNERABILITY_MESSAGES.noData}: ${set.error}`,
          error: set.error,
        };
      }
      const vulnerable: VulnerablePackage[] = [];
      for (const m of modules) {
        if (!semver.valid(m.version)) continue;
        const found = (set.byPackage.get(m.name) ?? []).flatMap((entry) => {
          const a = affects(entry, m.name, m.version);
          return a ? [advisoryOf(entry, m.version, a)] : [];
        });
        if (found.length > 0) vulnerable.push({ name: m.name, version: m.version, advisories: found });
      }
      const message =
        vulnerable.length === 0
          ? VULNERABILITY_MESSAGES.none
          : `${vulnerable.length} vulnerable package${vulnerable.length === 1 ? '' : 's'}: ${vulnerable.map((v) => `${v.name}@${v.version}`).join(', ')}`;
      return { ...base, checked: true, vulnerable, message, error: null };
    },
  };
}

export type AdvisoryCheck = ReturnType<typeof advisoryCheck>;
