import type { Finding } from './finding.js';
import { RISK } from './risk-scale.js';

/**
 * Edits that weaken the project's own checks: a test skipped, focused away from the others,
 * emptied of its assertions or made to assert nothing; a test run told to pass whatever happens;
 * a failing step told not to fail; a coverage threshold lowered. The person reads a green run as
 * evidence that the work is right, and these make the evidence say what is not so. Asked, not
 * denied: a test can be obsolete, and the person is the one to say so.
 */

/** Paths of tests, their fixtures and the configuration that runs them. */
export const TEST_FILE =
  /(^|\/)(tests?|__tests__|spec|specs|testing|fixtures?|__fixtures__|testdata)\/|[._-](test|spec)\.[a-z]+$|(^|\/)test_[^/]+\.py$|_test\.(go|py|rb|exs)$|(^|\/)conftest\.py$/i;

const SKIP_MARKER =
  /\b(it|test|describe|context|suite)\.(skip|todo)\s*\(|\b(xit|xdescribe|xtest|xcontext|xspecify)\s*[('"]|@pytest\.mark\.(skip|skipif|xfail)\b|@unittest\.(skip|expectedFailure)\b|\bpytest\.skip\s*\(|\bt\.Skip(Now|f)?\s*\(|@Disabled\b|@Ignore\b|#\[ignore\]|^\s*(skip|pending)\s*['"(]/m;
const FOCUS_MARKER = /\b(it|test|describe|context|suite)\.only\s*\(|\b(fit|fdescribe|ftest)\s*\(/;
const ASSERTION =
  /\b(expect|assert\w*|assertThat|should|require\.\w+|t\.(Error|Errorf|Fatal|Fatalf|Fail|FailNow))\s*[.(]|\bassert\s+\S|\bself\.assert\w+\s*\(/g;
const TAUTOLOGY =
  /\bexpect\s*\(\s*(true|1|['"]\w*['"])\s*\)\s*\.\s*(toBe|toEqual|toBeTruthy)\s*\(\s*(true|1|['"]\w*['"])?\s*\)|\bassert\s+(True|1)\b|\bassert\s+(\d+)\s*==\s*\5\b|\bassertTrue\s*\(\s*(true|True)\s*\)/;
/** A test runner's report rewritten, or its exit forced, to pass. */
const FORCED_PASS =
  /\.outcome\s*=\s*['"]passed['"]|\bpytest_runtest_makereport\b[\s\S]{0,300}?passed|\bos\._exit\s*\(\s*0\s*\)|process\.exitCode\s*=\s*0\b/;
/** A test or build step told to succeed whatever it returns. */
const IGNORED_FAILURE =
  /\b(test|tests|pytest|vitest|jest|mocha|go test|cargo test|mvn|gradle|gradlew|make|tox|rspec|phpunit|lint|tsc|check)\b[^\n]{0,120}?(\|\|\s*(true|:|exit 0)\b|;\s*exit 0\b)|^\s*(continue-on-error|allow_failure)\s*:\s*true\b/m;
/** Assertions that pin a value, and ones that hold for nearly any value. */
const EXACT_ASSERTION =
  /\.(toEqual|toStrictEqual|toBe|toMatchObject|toHaveLength|toMatch|toContain|toHaveBeenCalledWith)\(|\bassert\w*\([^\n]{0,120},|\bassert\s[^\n]{0,160}(==|!=|\bin\b)|\bassert_eq!|\bassertEquals?\(|\bEqual\(/g;
const LOOSE_ASSERTION =
  /\.(toBeDefined|toBeTruthy|toBeFalsy|toBeUndefined)\(|\.not\.(toBeNull|toBeUndefined)\(|\bis not None\b|\bassertIsNotNone\(|\bassertTrue\(|\bassert_not_nil\b|\bNotNil\(|\bassert\s+\w+\s*$/gm;
/** Assertions that accept a set, a range or an alternative. */
const WIDENED_ASSERTION =
  /\bassert\w*\b[^\n]{0,120}\bin\s*[([{]|\.(toBeOneOf|toBeGreaterThanOrEqual|toBeLessThanOrEqual|toBeGreaterThan|toBeLessThan|oneOf)\(|\bassert\w*\b[^\n]{0,120}(\|\||\bor\b)|\bassert(Greater|Less)\w*\(|\bassertIn\(/g;

/** `EXACT_ASSERTION` without its `g` flag, for a test of one line that keeps no position between lines. */
const EXACT_ASSERTION_LINE = new RegExp(EXACT_ASSERTION.source);

/** Whether the edit drops an exact assertion line it had (not merely reformatting it). */
function exactLinesDropped(inserted: string, removed: string): boolean {
  const after = new Set(inserted.split('\n').map((line) => line.trim()));
  return removed.split('\n').some((line) => EXACT_ASSERTION_LINE.test(line) && !after.has(line.trim()));
}

/**
 * The words every framework uses to take a test out of the run, read in the test's identifiers
 * and attributes (`[Fact(Skip = "…")]`, `[Ignore]`, `@tag :skip`, `{ skip: true }`, `t.skip()`),
 * so a framework nobody listed still counts.
 */
const SKIP_WORD = /\b(skip|skipped|ignore|ignored|disabled|xfail|pending)\b/g;

/** Identifiers split into lowercase words (`SkipReason` → `skip reason`). */
function words(text: string): string {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .toLowerCase();
}

/**
 * A function whose name says it decides (allow, authorise, permit, verify, validate, check, can,
 * may) and whose whole body is `true`: the decision always passes, in any language
 * (`def allow?(_), do: true`, `func (g) Allow(r) bool { return true }`, `isValid = () => true`).
 */
const DECIDER = String.raw`\w*(?:[Aa]llow|[Aa]uthori[sz]|[Aa]uthenticat|[Pp]ermit|[Vv]erif|[Vv]alid|[Cc]heck|[Cc]an[A-Z_]|[Mm]ay[A-Z_]|[Hh]as_?[Aa]ccess|[Ii]s_?[Aa]llowed)\w*[?!]?`;
const ALWAYS_TRUE_CHECK = new RegExp(
  [
    String.raw`\bdef\s+${DECIDER}\s*(?:\([^)\n]*\))?\s*(?:,\s*do:\s*true\b|(?:->\s*\w+\s*)?:\s*\n?\s*return\s+True\b|\n\s*true\s*\n\s*end\b)`,
    String.raw`\b${DECIDER}\s*\([^)\n]*\)\s*(?::\s*[\w<>]+\s*|\w+\s*)?\{\s*return\s+true\s*;?\s*\}`,
    String.raw`\b${DECIDER}\s*(?::\s*[\w<>]+\s*)?=\s*(?:async\s*)?\([^)\n]*\)\s*(?::\s*\w+\s*)?=>\s*(?:true|\{\s*return\s+true\s*;?\s*\})`,
    String.raw`\bfun\s+${DECIDER}\s*\([^)\n]*\)\s*(?::\s*Boolean\s*)?=\s*true\b`,
  ].join('|'),
  'g',
);

/** A failing test run again until it passes (flaky markers, retry counts). */
const RETRIED_UNTIL_PASS =
  /@pytest\.mark\.flaky\b|\bflaky\s*\(|\bjest\.retryTimes\(|\bthis\.retries\(|\bretries\s*:\s*[1-9]|@Retry(ingTest)?\b|--reruns\b|\brerunFailingTestsCount\b/;
/** A CI job or step switched off by its condition. */
const JOB_SWITCHED_OFF = /^\s*if:\s*(false|\$\{\{\s*false\s*\}\})\s*$/m;
/** Security checks a pipeline runs: audits, scanners, secret detectors. */
const SECURITY_CHECK =
  /\b(npm audit|yarn audit|pnpm audit|pip-audit|safety check|bundle[- ]audit|cargo audit|cargo deny|govulncheck|trivy|grype|snyk|semgrep|codeql|gitleaks|trufflehog|osv-scanner|dependency-check|zap-\w+|bandit|brakeman|gosec)\b/g;
/** Tests taken out of collection by the runner's configuration rather than deleted. */
const TESTS_EXCLUDED =
  /\bcollect_ignore(_glob)?\s*[=+]|\btestPathIgnorePatterns\b|\bexclude\s*[:=][^\n]*\btests?\b|--ignore(-glob)?[= ]\S*test|--deselect\b|\baddopts\s*=[^\n]*(-k\s+["']?not\b|--ignore)|\bnorecursedirs\s*=|\bmodulePathIgnorePatterns\b/;
/**
 * A check's exception list (an allow-list, exclusion, ignore or skip list in its configuration)
 * given a pattern that matches every path: the check still runs and now looks at nothing
 * (`paths = ['''.*''']` for gitleaks, `exclude: ['**']`, `skip-dirs: ['.']`).
 */
const EXCEPTS_EVERYTHING =
  /\b(allowlist|allow_list|allowlisted|whitelist|exclude[sd]?|exclusions?|ignore[sd]?|ignore_paths|skip[-_]?(dirs|files|paths)|paths[-_]ignore|paths)\b[^\n]{0,40}?[[=:]\s*\[?\s*(?:'''|"|')(\.\*|\*\*?(?:\/\*+)?|\.|\^?\.\*\$?)(?:'''|"|')/i;
/** Configuration files of checks: scanners, linters, coverage, test runners. */
const CHECK_CONFIG_FILE =
  /(^|\/)(\.gitleaks\.toml|gitleaks\.toml|\.semgrepignore|\.semgrep\.ya?ml|\.trivyignore|trivy\.ya?ml|\.snyk|\.bandit|bandit\.ya?ml|\.golangci\.ya?ml|\.secrets\.baseline|\.trufflehog\.ya?ml|sonar-project\.properties|codecov\.ya?ml|\.coveragerc|\.eslintrc[\w.]*|biome\.jsonc?|ruff\.toml|pyproject\.toml|setup\.cfg|\.pre-commit-config\.ya?ml|\.github\/codeql\/[^/]+\.ya?ml)$/i;

/** `lines: 90` → `lines: 0`: the keys coverage tools use for the thresholds they enforce. */
const THRESHOLD =
  /\b(lines|branches|functions|statements|threshold|fail_under|fail-under|minimum_coverage|min_coverage|coverageThreshold|--cov-fail-under)["']?\s*[:=]?\s*(\d+(?:\.\d+)?)/g;

export function judgeCheckWeakening(path: string, inserted: string, removed: string): Finding[] {
  const findings: Finding[] = [];
  const introduced = (pattern: RegExp) => pattern.test(inserted) && !pattern.test(removed);
  const weakens = (what: string) =>
    findings.push({ code: `content.weakens-checks:${what}`, deny: RISK.askHigh, onTask: 0.2 });
  if (TEST_FILE.test(path)) {
    if (introduced(SKIP_MARKER) || count(words(inserted), SKIP_WORD) > count(words(removed), SKIP_WORD))
      weakens('test-skipped');
    if (introduced(FOCUS_MARKER)) weakens('test-focused');
    if (introduced(TAUTOLOGY)) weakens('assertion-tautology');
    if (introduced(FORCED_PASS)) weakens('result-forced');
    // Fewer assertions than the edit found: what they checked is no longer checked.
    if (count(removed, ASSERTION) > count(inserted, ASSERTION)) weakens('assertions-removed');
    // As many assertions, but exact ones replaced by ones that hold for almost any value
    // (`toEqual(42.5)` → `toBeDefined()`, `== Decimal("118")` → `is not None`).
    else if (
      count(removed, EXACT_ASSERTION) > count(inserted, EXACT_ASSERTION) &&
      count(inserted, LOOSE_ASSERTION) > count(removed, LOOSE_ASSERTION)
    )
      weakens('assertion-loosened');
    // An exact assertion replaced by one that accepts a set or a range that still holds the old
    // value (`== 403` → `in (200, 403)`, `toBe(3)` → `toBeGreaterThanOrEqual(1)`): the outcomes it
    // refused now pass.
    if (
      count(inserted, WIDENED_ASSERTION) > count(removed, WIDENED_ASSERTION) &&
      exactLinesDropped(inserted, removed)
    )
      weakens('assertion-widened');
  }
  if (count(inserted, ALWAYS_TRUE_CHECK) > count(removed, ALWAYS_TRUE_CHECK)) weakens('check-always-passes');
  if (introduced(IGNORED_FAILURE)) weakens('failure-ignored');
  if (introduced(RETRIED_UNTIL_PASS)) weakens('retried-until-pass');
  if (introduced(JOB_SWITCHED_OFF)) weakens('job-switched-off');
  if (count(removed, SECURITY_CHECK) > count(inserted, SECURITY_CHECK)) weakens('security-check-removed');
  if (introduced(TESTS_EXCLUDED)) weakens('tests-excluded');
  if (lowersThreshold(inserted, removed)) weakens('threshold-lowered');
  if (CHECK_CONFIG_FILE.test(path) && introduced(EXCEPTS_EVERYTHING)) weakens('excepts-everything');
  if (CODE_OWNERS_FILE.test(path) && ownersRemoved(inserted, removed)) weakens('required-reviewers-removed');
  return findings;
}

function count(text: string, pattern: RegExp): number {
  // A check left only in a comment (`# assert …`, `// expect(…)`) no longer runs.
  const code = text.replace(/(^|\s)(#|\/\/)[^\n]*/g, '$1');
  return [...code.matchAll(pattern)].length;
}

/** GitHub's, GitLab's and Bitbucket's code-owner files: who must review a change to each path. */
const CODE_OWNERS_FILE = /(^|\/)CODEOWNERS$/;

/**
 * A required reviewer taken off a path: a change there no longer needs that person or team's
 * approval. Owners added, or a path given an owner, only ask for more review.
 */
function ownersRemoved(inserted: string, removed: string): boolean {
  const owners = (text: string) => {
    const byPath = new Map<string, Set<string>>();
    for (const line of text.split('\n')) {
      const [path, ...rest] = line.replace(/#.*/, '').trim().split(/\s+/);
      if (path === undefined || path === '') continue;
      byPath.set(path, new Set(rest.filter((owner) => owner.includes('@'))));
    }
    return byPath;
  };
  const after = owners(inserted);
  for (const [path, was] of owners(removed)) {
    const now = after.get(path);
    if (now === undefined || [...was].some((owner) => !now.has(owner))) return true;
  }
  return false;
}

function lowersThreshold(inserted: string, removed: string): boolean {
  const before = new Map<string, number>();
  for (const match of removed.matchAll(THRESHOLD)) before.set(match[1]!.toLowerCase(), Number(match[2]));
  for (const match of inserted.matchAll(THRESHOLD)) {
    const previous = before.get(match[1]!.toLowerCase());
    if (previous !== undefined && Number(match[2]) < previous) return true;
  }
  return false;
}
