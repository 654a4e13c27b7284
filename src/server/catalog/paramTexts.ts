import type { ServiceParam } from '../../core/catalog';
import type { LocalizedParam } from '../../core/contracts/catalog';
import type { Language } from '../../core/i18n';
import { localizeParam, overrideMap, type ParamTextOverride } from '../../core/paramTexts';
import type { Db } from '../db/client';
import { paramTextOverrides } from '../db/schema';

/** Every admin override of param texts, in the shape src/core/paramTexts.ts reads. */
export async function loadParamOverrides(db: Db): Promise<ParamTextOverride[]> {
  const rows = await db.select().from(paramTextOverrides).orderBy(paramTextOverrides.kind, paramTextOverrides.lang);
  return rows.map(({ kind, lang, label, hint, placeholder, required, invalid }) => ({ kind, lang, label, hint, placeholder, required, invalid }));
}

/** A service's params in `lang`, with the admin's overrides read from the database. */
export async function localizedParams(db: Db, params: readonly ServiceParam[], lang: Language): Promise<LocalizedParam[]> {
  if (params.length === 0) return [];
  const overrides = overrideMap(await loadParamOverrides(db));
  return params.map((p) => localizeParam(p, lang, overrides));
}
