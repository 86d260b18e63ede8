/**
 * Turns the stderr of `haproxy -c` into structured findings. HAProxy prints one line per finding,
 * `[ALERT]    (1234) : config : parsing [haproxy.cfg:12] : unknown keyword ...`, sometimes followed
 * by `   | ...` continuation lines. PIDs, timestamps and the scratch directory the check ran in are
 * noise that would make two runs of the same config differ, so they are stripped.
 */
import { isAbsolute, relative } from 'node:path';

/** One error or warning reported by `haproxy -c`. */
export interface HaproxyCheckError {
  /** File the finding is in, relative to the base directory; the main config when HAProxy names none. */
  readonly file: string;
  /** 1-based line in `file`, or null when HAProxy names no line. */
  readonly line: number | null;
  readonly message: string;
}

/** Findings parsed from one `haproxy -c` run. */
export interface ParsedHaproxyCheckOutput {
  readonly errors: readonly HaproxyCheckError[];
  readonly warnings: readonly HaproxyCheckError[];
}

// `[ALERT]    (1234) : rest`; older releases put a `ddd/hhmmss` timestamp before the PID.
const HEADER = /^\[(ALERT|WARNING|NOTICE|INFO|DEBUG)\]\s*(?:\d+\/\d+\s*)?(?:\(\d+\)\s*)?:\s?(.*)$/;
const LOCATION = /^[Pp]arsing \[([^\]]+?):(\d+)\]\s*:?\s*(.*)$/;
// Summary lines that only repeat that errors exist; kept only when nothing more specific was said.
const SUMMARY = [/^Error\(s\) found in configuration file/, /^Fatal errors found in configuration/];

interface Draft {
  level: 'error' | 'warning';
  file: string;
  line: number | null;
  message: string;
  summary: boolean;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Parses `haproxy -c` output. `baseDir` is the directory the check ran in (`-C`); absolute paths
 * below it, in file names and inside messages, become relative. `configPath` names the file used
 * for findings that carry no location (defaults to `haproxy.cfg`).
 */
export function parseHaproxyCheckOutput(
  stderr: string,
  opts: { baseDir: string; configPath?: string },
): ParsedHaproxyCheckOutput {
  const base = opts.baseDir.replace(/\/+$/, '');
  const basePattern = base ? new RegExp(`${escapeRegExp(base)}/?`, 'g') : null;
  const strip = (s: string): string => (basePattern ? s.replace(basePattern, '') : s);
  const relFile = (f: string): string => {
    if (isAbsolute(f) && base && (f === base || f.startsWith(`${base}/`))) return relative(base, f);
    return strip(f);
  };
  const defaultFile = relFile(opts.configPath ?? 'haproxy.cfg');

  const drafts: Draft[] = [];
  let current: Draft | null = null;
  for (const raw of stderr.split(/\r?\n/)) {
    const header = HEADER.exec(raw);
    if (header) {
      const level = header[1];
      current = null;
      if (level !== 'ALERT' && level !== 'WARNING') continue;
      let rest = (header[2] ?? '').trim().replace(/^config\s*:\s*/, '');
      let file = defaultFile;
      let line: number | null = null;
      const loc = LOCATION.exec(rest);
      if (loc) {
        file = relFile(loc[1] ?? '');
        line = Number(loc[2]);
        rest = loc[3] ?? '';
      }
      current = {
        level: level === 'ALERT' ? 'error' : 'warning',
        file,
        line,
        message: strip(rest.trim()),
        summary: SUMMARY.some((re) => re.test(rest)),
      };
      drafts.push(current);
      continue;
    }
    const cont = /^\s+\|\s?(.*)$/.exec(raw);
    if (cont && current)
      current.message = `${current.message} ${strip((cont[1] ?? '').trim())}`.trim();
  }

  const pick = (level: Draft['level']): HaproxyCheckError[] => {
    const all = drafts.filter((d) => d.level === level);
    const specific = all.filter((d) => !d.summary);
    return (specific.length > 0 ? specific : all).map(({ file, line, message }) => ({
      file,
      line,
      message,
    }));
  };
  return { errors: pick('error'), warnings: pick('warning') };
}
