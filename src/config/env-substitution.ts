// `${VAR}` substitution in every string value of the config. `$${VAR}` is an escape for the literal text
// `${VAR}`; an unset variable is an error naming the variable and the path where it is used.
import { type ConfigIssue, makeIssue } from "./config-issue.js";
import { formatConfigPath, isPlainObject, type PathSegment } from "./config-path.js";
import type { OriginTree } from "./located-value.js";

/** `${NAME}` or the escape `$${NAME}`; built per call so no regex state is shared. */
const referencePattern = (): RegExp => /\$?\$\{([A-Z_][A-Z0-9_]*)\}/g;

/** Inputs for {@link substituteEnvVars}; `origin` lets issues point at file and line. */
export interface SubstituteEnvParams {
  value: unknown;
  env: Record<string, string | undefined>;
  origin?: OriginTree;
}

/** Replaces `${VAR}` in one string; returns the names of unset variables it met. */
export function substituteEnvInString(
  text: string,
  env: Record<string, string | undefined>,
): { text: string; missing: string[] } {
  const missing: string[] = [];
  const out = text.replace(referencePattern(), (match: string, name: string) => {
    if (match.startsWith("$$")) return match.slice(1);
    const value = env[name];
    if (value === undefined) {
      if (!missing.includes(name)) missing.push(name);
      return match;
    }
    return value;
  });
  return { text: out, missing };
}

/** Substitutes `${VAR}` throughout a config value (keys are left alone); unset variables become errors. */
export function substituteEnvVars(params: SubstituteEnvParams): {
  value: unknown;
  issues: ConfigIssue[];
} {
  const issues: ConfigIssue[] = [];
  const visit = (
    value: unknown,
    where: { origin?: OriginTree; segments: PathSegment[] },
  ): unknown => {
    const { origin, segments } = where;
    if (typeof value === "string") {
      const result = substituteEnvInString(value, params.env);
      for (const name of result.missing) {
        const path = formatConfigPath(segments);
        const message = `environment variable "${name}" is not set (used in ${path || "the config root"})`;
        issues.push(makeIssue({ severity: "error", path, message, at: origin?.at }));
      }
      return result.text;
    }
    if (Array.isArray(value)) {
      return value.map((item, index) =>
        visit(item, { origin: origin?.children?.get(index), segments: [...segments, index] }),
      );
    }
    if (isPlainObject(value)) {
      // Object.fromEntries defines own data properties, so a "__proto__" key stays plain data.
      return Object.fromEntries(
        Object.entries(value).map(([key, child]) => [
          key,
          visit(child, { origin: origin?.children?.get(key), segments: [...segments, key] }),
        ]),
      );
    }
    return value;
  };
  return { value: visit(params.value, { origin: params.origin, segments: [] }), issues };
}
