import { DEFAULT_LANGUAGE } from '../../core/i18n';

/**
 * The storefront's own translator: what the pages use of a full i18n library, in about a
 * kilobyte — nested keys, `ns:key` prefixes, `{{name}}` placeholders, `_one`/`_other` plurals by
 * the language's plural rules, `defaultValue`, `returnObjects`, and a fallback language.
 * Everything it does is covered by translator.test.ts.
 */

/** Text trees by language, then namespace: `{ en: { common: { brand: 'Artım' } } }`. */
export type Resources = Record<string, Record<string, Record<string, unknown>>>;

export interface TOptions {
  count?: number;
  defaultValue?: string;
  returnObjects?: boolean;
  /** Anything else is a placeholder value. */
  [placeholder: string]: unknown;
}

export interface TFunction {
  (key: string, options?: TOptions & { returnObjects?: false }): string;
  (key: string, options: TOptions & { returnObjects: true }): unknown;
}

const NS_SEPARATOR = ':';
const PLACEHOLDER = /\{\{\s*([\w.]+)\s*\}\}/g;

function lookup(tree: unknown, path: string): unknown {
  let node = tree;
  for (const part of path.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

function interpolate(value: unknown, options: TOptions): unknown {
  if (typeof value === 'string') {
    return value.replace(PLACEHOLDER, (whole, name: string) => {
      const v = options[name];
      return v === undefined || v === null ? whole : String(v);
    });
  }
  if (Array.isArray(value)) return value.map((v) => interpolate(v, options));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolate(v, options)]));
  }
  return value;
}

function merge(target: Record<string, unknown>, source: Record<string, unknown>): Record<string, unknown> {
  for (const [key, value] of Object.entries(source)) {
    const current = target[key];
    target[key] =
      value && typeof value === 'object' && !Array.isArray(value) && current && typeof current === 'object' && !Array.isArray(current)
        ? merge({ ...(current as Record<string, unknown>) }, value as Record<string, unknown>)
        : value;
  }
  return target;
}

const pluralRules = new Map<string, Intl.PluralRules>();
function pluralCategory(lang: string, count: number): string {
  let rules = pluralRules.get(lang);
  if (!rules) pluralRules.set(lang, (rules = new Intl.PluralRules(lang)));
  return rules.select(count);
}

export class I18n {
  readonly data: Resources;
  private listeners = new Set<() => void>();

  constructor(
    public language: string,
    resources: Resources = {},
    readonly defaultNamespace = 'common',
    readonly fallbackLanguage: string = DEFAULT_LANGUAGE,
  ) {
    // Bundles are added per language and namespace; copying those two levels keeps the caller's
    // object as it was.
    this.data = Object.fromEntries(Object.entries(resources).map(([lang, byNs]) => [lang, { ...byNs }]));
  }

  hasResourceBundle(lang: string, ns: string): boolean {
    return this.data[lang]?.[ns] !== undefined;
  }

  /** Adds (deep-merges) one namespace's text for one language. */
  addResourceBundle(lang: string, ns: string, bundle: Record<string, unknown>): void {
    const byNs = (this.data[lang] ??= {});
    byNs[ns] = merge({ ...(byNs[ns] ?? {}) }, bundle);
  }

  /** Switches the language and re-renders every component that translates. */
  async changeLanguage(lang: string): Promise<void> {
    if (lang === this.language) return;
    this.language = lang;
    for (const listener of this.listeners) listener();
  }

  /** For useSyncExternalStore: called on every language change. */
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /**
   * A translate function for one language (the current one when omitted) and one or more
   * namespaces, searched in order; a `ns:` prefix on a key names its namespace instead.
   */
  getFixedT(lang?: string | null, namespaces: string | readonly string[] = this.defaultNamespace): TFunction {
    const list = typeof namespaces === 'string' ? [namespaces] : namespaces;
    return ((key: string, options: TOptions = {}) => this.translate(lang ?? this.language, list, key, options)) as TFunction;
  }

  /** Translates in the current language and the default namespace. Safe to pass around unbound. */
  t: TFunction = ((key: string, options?: TOptions) => this.translate(this.language, [this.defaultNamespace], key, options ?? {})) as TFunction;

  private translate(lang: string, namespaces: readonly string[], key: string, options: TOptions): unknown {
    let path = key;
    let searched = namespaces;
    const separator = key.indexOf(NS_SEPARATOR);
    if (separator > 0) {
      searched = [key.slice(0, separator)];
      path = key.slice(separator + 1);
    }
    const paths = typeof options.count === 'number' ? [`${path}_${pluralCategory(lang, options.count)}`, `${path}_other`, path] : [path];
    for (const language of lang === this.fallbackLanguage ? [lang] : [lang, this.fallbackLanguage]) {
      for (const ns of searched) {
        for (const p of paths) {
          const found = lookup(this.data[language]?.[ns], p);
          if (found === undefined || found === null) continue;
          if (typeof found === 'string') return interpolate(found, options);
          if (options.returnObjects) return interpolate(found, options);
        }
      }
    }
    return options.defaultValue !== undefined ? interpolate(options.defaultValue, options) : key;
  }
}
