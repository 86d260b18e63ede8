/**
 * A haproxy.cfg reader that is exact enough to diff configurations: it splits lines into
 * arguments the way HAProxy 2.6 does and groups them into sections. It does not validate
 * keywords; `haproxy -c` does that.
 */

/** Keywords that open a section in HAProxy 2.6. */
export const CFG_SECTION_KEYWORDS: ReadonlySet<string> = new Set([
  'global',
  'defaults',
  'frontend',
  'backend',
  'listen',
  'userlist',
  'peers',
  'resolvers',
  'mailers',
  'cache',
  'program',
  'http-errors',
  'ring',
  'log-forward',
  'fcgi-app',
]);

/** One non-empty configuration line. */
export interface CfgLine {
  /** 1-based line number in the file. */
  readonly lineNo: number;
  /** Arguments after unquoting and unescaping; never empty. */
  readonly args: readonly string[];
  /** True when a `"$VAR"` / `"${VAR}"` expansion makes the value unknown until HAProxy starts. */
  readonly usesEnv: boolean;
  /** Nesting depth of `.if` blocks around the line (0 outside any). */
  readonly condDepth: number;
  /** The arguments as one comparable string (equal keys = equal lines for HAProxy). */
  readonly key: string;
}

/** One section: its header line and the lines up to the next header. */
export interface CfgSection {
  /** `global`, `defaults`, `frontend`, `backend`, `listen`, … */
  readonly kind: string;
  /** The section name; empty for `global` and anonymous `defaults`. */
  readonly name: string;
  /** The defaults section named after `from`, if any. */
  readonly from: string | undefined;
  /** Stable identity for matching sections across two files (anonymous defaults are numbered). */
  readonly key: string;
  /** Human-readable label used in reasons: `backend be_app`, `global`, `defaults #2`. */
  readonly label: string;
  readonly header: CfgLine;
  readonly lines: readonly CfgLine[];
}

/** A parsed haproxy.cfg. */
export interface ParsedCfg {
  /** Lines before the first section header (HAProxy rejects them; kept so a change is seen). */
  readonly preamble: readonly CfgLine[];
  readonly sections: readonly CfgSection[];
}

/** The result of splitting one line. */
export interface TokenizedLine {
  readonly args: readonly string[];
  readonly usesEnv: boolean;
}

const ESCAPES: Readonly<Record<string, string>> = {
  ' ': ' ',
  '\\': '\\',
  t: '\t',
  n: '\n',
  r: '\r',
  '#': '#',
  "'": "'",
  '"': '"',
};

function isSpace(ch: string): boolean {
  return ch === ' ' || ch === '\t' || ch === '\v' || ch === '\f';
}

function isHex(ch: string | undefined): boolean {
  return ch !== undefined && /^[0-9a-fA-F]$/.test(ch);
}

/**
 * Splits one line into arguments with HAProxy 2.6's rules: blanks separate arguments outside
 * quotes; `#` outside quotes starts a comment; single quotes keep everything literally; double
 * quotes allow `\` escapes and environment variables; adjacent quoted parts join into one
 * argument; `\ `, `\\`, `\t`, `\n`, `\r`, `\#`, `\'`, `\"`, `\xHH` are escapes (and `\$` inside
 * double quotes) while any other backslash stays as is. An empty argument at the end of the
 * line is dropped, as HAProxy does. There is no line continuation in 2.6: a trailing `\`
 * is an ordinary character.
 */
export function tokenizeCfgLine(text: string): TokenizedLine {
  // Most lines hold no quote, escape, comment or variable: plain splitting is then exact.
  if (!/["'\\#$\r]/.test(text)) {
    return { args: text.split(/[ \t\v\f]+/).filter((a) => a !== ''), usesEnv: false };
  }
  const args: string[] = [];
  let current = '';
  let started = false;
  let squote = false;
  let dquote = false;
  let usesEnv = false;
  let i = 0;
  const endArg = (): void => {
    args.push(current);
    current = '';
    started = false;
  };
  while (i < text.length) {
    const ch = text[i] ?? '';
    if (ch === '\n' || ch === '\r') break;
    if (ch === '#' && !squote && !dquote) break;
    if (ch === '"' && !squote) {
      dquote = !dquote;
      started = true;
      i++;
      continue;
    }
    if (ch === "'" && !dquote) {
      squote = !squote;
      started = true;
      i++;
      continue;
    }
    if (ch === '\\' && !squote) {
      const next = text[i + 1];
      if (next === 'x' && isHex(text[i + 2]) && isHex(text[i + 3])) {
        current += String.fromCharCode(parseInt(text.slice(i + 2, i + 4), 16));
        i += 4;
      } else if (next === '$' && dquote) {
        current += '$';
        i += 2;
      } else if (next !== undefined && next in ESCAPES) {
        current += ESCAPES[next] ?? next;
        i += 2;
      } else {
        current += '\\';
        i++;
      }
      started = true;
      continue;
    }
    if (isSpace(ch) && !squote && !dquote) {
      while (i < text.length && isSpace(text[i] ?? '')) i++;
      if (started || current !== '') endArg();
      continue;
    }
    if (ch === '$' && dquote) usesEnv = true;
    current += ch;
    started = true;
    i++;
  }
  // HAProxy drops an empty argument at the end of the line (for example a trailing `""`).
  if (current !== '') args.push(current);
  return { args, usesEnv };
}

/** Formats arguments back into one readable line, quoting those that need it. */
export function formatCfgArgs(args: readonly string[]): string {
  return args.map((a) => (a === '' || /[\s"'#\\]/.test(a) ? JSON.stringify(a) : a)).join(' ');
}

interface OpenSection {
  kind: string;
  name: string;
  from: string | undefined;
  header: CfgLine;
  lines: CfgLine[];
}

function sectionHeader(args: readonly string[]): { name: string; from: string | undefined } {
  const rest = args.slice(1);
  const fromAt = rest.indexOf('from');
  if (fromAt >= 0) {
    return { name: rest.slice(0, fromAt).join(' '), from: rest[fromAt + 1] };
  }
  return { name: rest[0] ?? '', from: undefined };
}

/** Parses a whole haproxy.cfg into sections (comments and blank lines dropped). */
export function parseCfg(text: string): ParsedCfg {
  const preamble: CfgLine[] = [];
  const open: OpenSection[] = [];
  let condDepth = 0;
  const rawLines = text.split('\n');
  for (let n = 0; n < rawLines.length; n++) {
    const { args, usesEnv } = tokenizeCfgLine(rawLines[n] ?? '');
    const first = args[0];
    if (first === undefined) continue;
    if (first === '.endif' && condDepth > 0) condDepth--;
    const line: CfgLine = { lineNo: n + 1, args, usesEnv, condDepth, key: args.join('\u0000') };
    if (first === '.if') condDepth++;
    if (CFG_SECTION_KEYWORDS.has(first)) {
      const { name, from } = sectionHeader(args);
      open.push({ kind: first, name, from, header: line, lines: [] });
      continue;
    }
    const last = open[open.length - 1];
    if (last === undefined) preamble.push(line);
    else last.lines.push(line);
  }
  const seen = new Map<string, number>();
  const sections = open.map((s): CfgSection => {
    const base = s.name === '' ? s.kind : `${s.kind} ${s.name}`;
    const count = (seen.get(base) ?? 0) + 1;
    seen.set(base, count);
    const key = count === 1 ? base : `${base} #${String(count)}`;
    return { ...s, key, label: key };
  });
  return { preamble, sections };
}

/** Finds a section by kind and name. */
export function findSection(cfg: ParsedCfg, kind: string, name: string): CfgSection | undefined {
  return cfg.sections.find((s) => s.kind === kind && s.name === name);
}

/**
 * The defaults section a proxy section inherits from: the one named by `from`, otherwise the
 * last `defaults` section above it (named or not).
 */
export function defaultsOf(cfg: ParsedCfg, section: CfgSection): CfgSection | undefined {
  let index = defaultsIndex.get(cfg);
  if (index === undefined) {
    index = { named: new Map(), implicit: new Map() };
    let last: CfgSection | undefined;
    for (const s of cfg.sections) {
      index.implicit.set(s, last);
      if (s.kind === 'defaults') {
        last = s;
        if (s.name !== '' && !index.named.has(s.name)) index.named.set(s.name, s);
      }
    }
    defaultsIndex.set(cfg, index);
  }
  return section.from !== undefined ? index.named.get(section.from) : index.implicit.get(section);
}

interface DefaultsIndex {
  readonly named: Map<string, CfgSection>;
  readonly implicit: Map<CfgSection, CfgSection | undefined>;
}

const defaultsIndex = new WeakMap<ParsedCfg, DefaultsIndex>();

/** The chain of defaults sections a section inherits from, outermost first. */
export function defaultsChain(cfg: ParsedCfg, section: CfgSection): readonly CfgSection[] {
  const chain: CfgSection[] = [];
  let cur = defaultsOf(cfg, section);
  while (cur !== undefined && !chain.includes(cur)) {
    chain.unshift(cur);
    cur = cur.from === undefined ? undefined : defaultsOf(cfg, cur);
  }
  return chain;
}
