// What the load bench's users are and send: their names, the files they upload, and the figures
// it reports of a set of timed requests.

export const BENCH_PASSWORD = 'Bench!Passw0rd-2026';
/** The pipelines large files go to: one for the import alone, one for the import beside the reads. */
export const BIG_PIPELINES = ['Bench dealers A', 'Bench dealers B'] as const;
export const COUNTRY_PIPELINE = 'Dealers France';
/** The pipeline fed by a listener (`listener` mode), published by a manager. */
export const LISTENER_PIPELINE = 'Bench prices listener';
export const DATA_SUB_KIND = 'dealers';

export const benchUserName = (i: number) => `bench.user${String(i).padStart(3, '0')}`;
/** Every other bench user is a manager, who also reads the logbook. */
export const isManager = (i: number) => i % 2 === 0;

const CITIES = ['Lyon', 'Marseille', 'Lille', 'Paris', 'Nantes', 'Bordeaux', 'Toulouse', 'Rennes'];

/** A dealers file the demo data model accepts: `rows` rows, or as many as fill `bytes`. */
export function dealersCsv(options: { rows?: number; bytes?: number; seed?: number }): Buffer {
  const lines = ['dealerCode,name,city,postalCode,email,vehicles,openedOn'];
  let size = lines[0]?.length ?? 0;
  const offset = options.seed ?? 0;
  for (let i = 0; ; i++) {
    if (options.rows !== undefined && i >= options.rows) break;
    if (options.bytes !== undefined && size >= options.bytes) break;
    const n = i + offset;
    const code = `FR${String(n % 1000).padStart(3, '0')}`;
    const city = CITIES[n % CITIES.length] ?? 'Lyon';
    const day = String((n % 28) + 1).padStart(2, '0');
    const line = `${code},Garage ${n} du Centre,${city},${69000 + (n % 1000)},contact${n}@garage.example,${n % 500},2020-03-${day}`;
    lines.push(line);
    size += line.length + 1;
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

/** A multipart body of one file for `POST /uploads`. */
export function uploadBody(pipelineId: string, file: Buffer, name: string): { body: Buffer; contentType: string } {
  const boundary = '----gdb-bench-load';
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="pipelineId"\r\n\r\n${pipelineId}\r\n`),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${DATA_SUB_KIND}"; filename="${name}"\r\nContent-Type: text/csv\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

export interface Timings {
  count: number;
  failures: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/** Requests per second and latency percentiles (ms) of a set of timed requests. */
export function summarise(latencies: number[], failures: number, seconds: number): Timings {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  const round = (v: number) => Math.round(v * 10) / 10;
  return {
    count: sorted.length,
    failures,
    seconds: round(seconds),
    perSecond: Math.round(sorted.length / seconds),
    p50: round(at(0.5)),
    p95: round(at(0.95)),
    p99: round(at(0.99)),
    max: round(sorted.at(-1) ?? 0),
  };
}
