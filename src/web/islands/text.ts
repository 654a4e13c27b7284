import { BOOT_DATA_ID, type IslandsBootData } from '../app/document';
import { bundles } from '../i18n/bundles';

/** A public page's boot data with its text in it, as the islands hydrate with it (./runtime.tsx). */
export type PageBoot = IslandsBootData & { resources: Record<string, unknown> };

let reading: Promise<PageBoot> | undefined;

/**
 * The page's boot data, read once, with the text its islands use. A page whose islands all wait to
 * be touched or asked comes without it, naming the bundles instead (`text`: docs/decisions/0030),
 * so that a visitor who never acts does not download it with the HTML; the first island to wake
 * loads them here, beside its code and React (entry-islands.tsx). In the islands' build
 * `../i18n/bundles` is the public pages' own list (bundles.islands.ts).
 */
export function pageBoot(): Promise<PageBoot> {
  return (reading ??= (async () => {
    const boot = JSON.parse(document.getElementById(BOOT_DATA_ID)!.textContent!) as IslandsBootData;
    if (boot.resources) return boot as PageBoot;
    const loaded = await Promise.all(
      (boot.text ?? []).map(async (ns) => {
        const load = bundles[`./locales/${boot.lang}/${ns}.json`];
        if (!load) throw new Error(`Missing locale bundle ${boot.lang}/${ns}`);
        return [ns, (await load()).default] as const;
      }),
    );
    return { ...boot, resources: { [boot.lang]: Object.fromEntries(loaded) } };
  })());
}
