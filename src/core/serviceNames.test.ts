import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SERVICE_GLOSSARY } from './serviceGlossary';
import * as naming from './serviceNames';
import type { NameRule, NamedService } from './serviceNames';

// The rules' own behaviour, without the glossary (its tests are at the end).
const applyNameRules = (s: NamedService, lang: string, rules: readonly NameRule[]) => naming.applyNameRules(s, lang, rules, []);
const displayNames = (s: readonly NamedService[], lang: string, rules: readonly NameRule[]) => naming.displayNames(s, lang, rules, []);
const previewNames = (s: readonly NamedService[], lang: string, before: readonly NameRule[], after: readonly NameRule[]) => naming.previewNames(s, lang, before, after, []);

const rule = (keyword: string, name: string, extra: Partial<NameRule> = {}): NameRule => ({ keyword, lang: 'az', name, ...extra });
const svc = (id: string, name: string) => ({ id, name });

/** Seven follower services of one provider, told apart only by their qualifiers. */
const followers = [
  'Instagram Followers [Real, 30 days refill] ⚡',
  'Instagram Followers [HQ, No Refill] 1K/day',
  'Instagram Followers [Premium, Lifetime refill] Instant',
  'Instagram Followers [Mixed Quality, 60d refill] 🇦🇿 Azerbaijan',
  'Instagram Followers [Active Users, 90d refill] Fast',
  'Instagram Followers [Non Drop, 365d refill] 10K/day',
  'instagram followers - bot, no refill',
].map((name, i) => svc(String(i + 1), name));

describe('applyNameRules', () => {
  it('translates the matched words and keeps the qualifiers', () => {
    const rules = [rule('Instagram Followers', 'İnstaqram İzləyiciləri')];
    expect(applyNameRules(followers[0]!, 'az', rules)).toBe('İnstaqram İzləyiciləri [Real, 30 days refill] ⚡');
    expect(applyNameRules(followers[6]!, 'az', rules)).toBe('İnstaqram İzləyiciləri - bot, no refill');
    expect(new Set(followers.map((s) => applyNameRules(s, 'az', rules))).size).toBe(7);
  });

  it('matches case-insensitively, on word boundaries, with any spacing', () => {
    const rules = [rule('likes', 'Bəyənmələr')];
    expect(applyNameRules(svc('1', 'Instagram LIKES [Real]'), 'az', rules)).toBe('Instagram Bəyənmələr [Real]');
    expect(applyNameRules(svc('2', 'YouTube Dislikes'), 'az', rules)).toBe('YouTube Dislikes');
    expect(applyNameRules(svc('3', 'Likes_Fast'), 'az', rules)).toBe('Likes_Fast');
    expect(applyNameRules(svc('4', 'Instagram Likes/Views'), 'az', rules)).toBe('Instagram Bəyənmələr/Views');
    expect(applyNameRules(svc('5', 'Comment  Likes'), 'az', [rule('comment likes', 'Şərh bəyənmələri')])).toBe('Şərh bəyənmələri');
    expect(applyNameRules(svc('6', 'Views (Ölkə)'), 'az', [rule('(Ölkə)', '(ölkə)')])).toBe('Views (ölkə)');
  });

  it('uses the longer keyword where two overlap, and several rules on different words', () => {
    const rules = [rule('Instagram', 'İnstaqram'), rule('Instagram Story Views', 'İnstaqram hekayə baxışları'), rule('Followers', 'İzləyicilər')];
    expect(applyNameRules(svc('1', 'Instagram Story Views [Fast]'), 'az', rules)).toBe('İnstaqram hekayə baxışları [Fast]');
    expect(applyNameRules(svc('2', 'Instagram Followers [HQ]'), 'az', rules)).toBe('İnstaqram İzləyicilər [HQ]');
  });

  it('keeps English, other languages and unmatched names as the provider wrote them', () => {
    const rules = [rule('Followers', 'İzləyicilər')];
    expect(applyNameRules(followers[0]!, 'en', rules)).toBe(followers[0]!.name);
    expect(applyNameRules(followers[0]!, 'tr', rules)).toBe(followers[0]!.name);
    expect(applyNameRules(svc('9', 'TikTok Likes'), 'az', rules)).toBe('TikTok Likes');
    expect(applyNameRules(svc('9', 'TikTok Likes'), 'az', [rule(' ', 'x'), rule('Likes', ' ')])).toBe('TikTok Likes');
  });

  it('applies a rule with a service id to that service only, before the others', () => {
    const rules = [rule('Instagram Followers [Real, 30 days refill] ⚡', 'Real izləyicilər (30 gün bərpa)', { serviceId: '1' }), rule('Instagram Followers', 'İnstaqram İzləyiciləri')];
    expect(applyNameRules(followers[0]!, 'az', rules)).toBe('Real izləyicilər (30 gün bərpa)');
    expect(applyNameRules(followers[1]!, 'az', rules)).toBe('İnstaqram İzləyiciləri [HQ, No Refill] 1K/day');
    expect(applyNameRules(svc('2', followers[0]!.name), 'az', rules.slice(0, 1))).toBe(followers[0]!.name);
  });
});

/** Names from few words, so that a rule often turns one provider name into another. */
const providerName = fc
  .tuple(fc.constantFrom('Instagram', 'TikTok', 'instagram'), fc.constantFrom('Followers', 'Likes', 'Views', 'İzləyicilər'), fc.constantFrom('', ' [HQ]', ' [Real] ⚡', ' - Likes'))
  .map(([platform, kind, qualifier]) => `${platform} ${kind}${qualifier}`);
const nameRule = fc.record({
  keyword: fc.constantFrom('Followers', 'Likes', 'likes', 'Instagram', 'Instagram Followers', 'TikTok', '[HQ]', 'Views'),
  lang: fc.constantFrom('az', 'az', 'tr'),
  name: fc.constantFrom('Likes', 'Followers', 'İzləyicilər', 'TikTok', 'Instagram Likes', 'Bəyənmələr', '[Real] ⚡'),
  serviceId: fc.option(fc.constantFrom('0', '1', '2', '3'), { freq: 2 }),
});
const catalogue = fc.uniqueArray(providerName, { minLength: 1, maxLength: 12 }).chain((names) =>
  fc.array(fc.constantFrom(...names), { maxLength: 3 }).map((dups) => [...names, ...dups].map((name, i) => svc(String(i), name))),
);

describe('displayNames', () => {
  it('never gives services whose provider names differ the same name', () => {
    fc.assert(
      fc.property(catalogue, fc.array(nameRule, { maxLength: 5 }), (services, rules) => {
        const names = displayNames(services, 'az', rules);
        for (const a of services) {
          for (const b of services) {
            if (a.name !== b.name) expect(names.get(a.id)).not.toBe(names.get(b.id));
          }
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('gives each service the name its rules make unless that reads like another service', () => {
    fc.assert(
      fc.property(catalogue, fc.array(nameRule, { maxLength: 5 }), (services, rules) => {
        const names = displayNames(services, 'az', rules);
        for (const s of services) expect([applyNameRules(s, 'az', rules), s.name]).toContain(names.get(s.id));
      }),
    );
  });

  it('keeps the provider names of services a rule would make read alike', () => {
    const services = [svc('1', 'Instagram Followers [HQ]'), svc('2', 'Instagram Likes [HQ]'), svc('3', 'Instagram Views [HQ]')];
    const names = displayNames(services, 'az', [rule('Followers', 'Likes'), rule('Views', 'Baxışlar')]);
    expect([...names.values()]).toEqual(['Instagram Followers [HQ]', 'Instagram Likes [HQ]', 'Instagram Baxışlar [HQ]']);
  });
});

describe('previewNames', () => {
  it('lists the services a new rule renames, with the clashes it cannot apply', () => {
    const services = [...followers, svc('8', 'Instagram Likes [HQ]'), svc('9', 'Instagram Izləyicilər [HQ]')];
    const before = [rule('Likes', 'Bəyənmələr')];
    const after = [...before, rule('instagram followers', 'İnstaqram İzləyiciləri')];
    const rows = previewNames(services, 'az', before, after);
    expect(rows).toHaveLength(7);
    expect(rows[0]).toEqual({ id: '1', providerName: followers[0]!.name, before: followers[0]!.name, after: 'İnstaqram İzləyiciləri [Real, 30 days refill] ⚡', clash: false });
    const clashing = previewNames([svc('1', 'Instagram Followers [HQ]'), svc('9', 'İnstaqram İzləyiciləri [HQ]')], 'az', before, after);
    expect(clashing).toEqual([{ id: '1', providerName: 'Instagram Followers [HQ]', before: 'Instagram Followers [HQ]', after: 'Instagram Followers [HQ]', clash: true }]);
  });
});

describe('the glossary', () => {
  const az = (name: string, rules: NameRule[] = []) => naming.applyNameRules(svc('1', name), 'az', rules);
  const tr = (name: string, rules: NameRule[] = []) => naming.applyNameRules(svc('1', name), 'tr', rules);

  it('words a fresh catalogue in az and tr, in each language’s word order', () => {
    const name = 'Instagram Followers [Mixed Quality, Active Users, Lifetime refill]';
    expect(az(name)).toBe('Instagram izləyiciləri [Qarışıq keyfiyyət, Aktiv istifadəçilər, Ömürlük bərpa]');
    expect(tr(name)).toBe('Instagram takipçi [Karışık kalite, Aktif kullanıcılar, Ömür boyu telafi]');
    expect(naming.applyNameRules(svc('1', name), 'en', [])).toBe(name);
    expect(az('Facebook Page Likes [HQ, 1K/day, 30d refill]')).toBe('Facebook səhifə bəyənmələri [Yüksək keyfiyyət, Gündə 1K, 30 gün bərpa]');
    expect(tr('Facebook Page Likes [HQ, 1K/day, 30d refill]')).toBe('Facebook sayfa beğeni [Yüksek kalite, Günde 1K, 30 gün telafi]');
    expect(az('YouTube Subscribers [Real, No Refill]')).toBe('YouTube abunəçiləri [Real, Bərpasız]');
    expect(tr('Telegram Channel Members [Targeted Country]')).toBe('Telegram kanal üye [Ülke hedefli]');
    expect(az('Website Traffic')).toBe('Veb-sayt trafiki');
    expect(tr('Google Maps Reviews')).toBe('Google Maps değerlendirmesi');
  });

  it('puts an az head noun in the possessive after a noun, not first or after adjectives only', () => {
    expect(az('Real Followers')).toBe('Real izləyicilər');
    expect(az('Instagram Real Turkish Followers')).toBe('Instagram real türk izləyiciləri');
    expect(tr('Instagram Real Turkish Followers')).toBe('Instagram gerçek Türk takipçi');
    expect(az('Followers - Instagram')).toBe('İzləyicilər - Instagram');
  });

  it('fills in numbers, starts each part of a name with a capital and leaves unknown words', () => {
    expect(az('TikTok Views | Start: 0-1 hours, 50K/day, R30')).toBe('TikTok baxışları | Başlama: 0-1 saat, Gündə 50K, 30 gün bərpa');
    expect(tr('Instagram Followers [US] Refill 365 days')).toBe('Instagram takipçi [ABD] Telafi 365 gün');
    expect(az('Instagram Followers for us')).toBe('Instagram izləyiciləri for us');
    expect(tr('Instagram Likes [Quantum Boost]')).toBe('Instagram beğeni [Quantum Boost]');
  });

  it('gives way to the admin’s rules wherever both match', () => {
    const rules = [rule('Instagram Followers', 'İnstaqram İzləyiciləri'), rule('Lifetime', 'Həmişəlik'), rule('Likes', 'Bəyənilər', { lang: 'tr' })];
    expect(az('Instagram Followers [HQ, Lifetime refill]', rules)).toBe('İnstaqram İzləyiciləri [Yüksək keyfiyyət, Həmişəlik bərpa]');
    expect(tr('Instagram Likes [HQ]', rules)).toBe('Instagram Bəyənilər [Yüksek kalite]');
    const one = [rule('Instagram Followers [HQ]', 'Seçilmiş izləyicilər', { serviceId: '1' })];
    expect(az('Instagram Followers [HQ]', one)).toBe('Seçilmiş izləyicilər');
  });

  it('has a wording in az and tr for every term, naming the numbers the term matches', () => {
    for (const term of SERVICE_GLOSSARY) {
      for (const lang of ['az', 'tr'] as const) {
        const text = term[lang];
        for (const form of typeof text === 'string' ? [text] : text) {
          expect(form.trim(), `${term.en} (${lang})`).not.toBe('');
          for (const n of term.en.match(/\{[nm]\}/g) ?? []) expect(form, `${term.en} (${lang})`).toContain(n);
        }
      }
    }
  });

  /** Provider names from the glossary's words and their synonyms, in any letter case. */
  const words = fc.constantFrom('Followers', 'followers', 'Likes', 'Views', 'Page Likes', 'Story Views', 'Subscribers', 'Members', 'Comments', 'Custom Comments', 'Reviews', 'Plays', 'Traffic');
  const tag = fc.constantFrom('HQ', 'High Quality', 'hq', 'Real', 'Non Drop', 'No Drop', 'Non-Drop', 'No Refill', '30d refill', '30 days refill', 'R30', 'Lifetime refill', 'Instant', 'Fast', 'US', 'USA', 'Turkish', 'Turkey', '500/day', 'İzləyicilər', 'izləyiciləri');
  const glossaryName = fc
    .tuple(fc.constantFrom('Instagram', 'TikTok', 'instagram', 'Real', 'Turkish', ''), words, fc.array(tag, { maxLength: 3 }), fc.constantFrom('', ' ⚡', ' - Fast'))
    .map(([platform, what, tags, tail]) => `${platform ? `${platform} ` : ''}${what}${tags.length ? ` [${tags.join(', ')}]` : ''}${tail}`);
  const adminRule = fc.record({
    keyword: fc.constantFrom('Followers', 'Likes', 'Instagram Followers', 'HQ', 'Real', 'refill', 'İzləyicilər'),
    lang: fc.constantFrom('az', 'tr'),
    name: fc.constantFrom('İzləyicilər', 'izləyiciləri', 'Takipçi', 'Yüksək keyfiyyət', 'Real', 'Followers'),
    serviceId: fc.option(fc.constantFrom('0', '1', '2'), { freq: 3 }),
  });
  const glossaryCatalogue = fc.uniqueArray(glossaryName, { minLength: 1, maxLength: 14 }).chain((names) =>
    fc.array(fc.constantFrom(...names), { maxLength: 3 }).map((dups) => [...names, ...dups].map((name, i) => svc(String(i), name))),
  );

  it('never makes services whose provider names differ read alike, with or without the admin’s rules', () => {
    fc.assert(
      fc.property(glossaryCatalogue, fc.array(adminRule, { maxLength: 4 }), fc.constantFrom('az', 'tr'), (services, rules, lang) => {
        const names = naming.displayNames(services, lang, rules);
        for (const a of services) {
          for (const b of services) {
            if (a.name !== b.name) expect(names.get(a.id)).not.toBe(names.get(b.id));
          }
          expect([naming.applyNameRules(a, lang, rules), a.name]).toContain(names.get(a.id));
        }
      }),
      { numRuns: 600 },
    );
  });

  it('reads every service of a fresh shop in az and tr, told apart as in English', async () => {
    const { generateCatalog } = await import('../../sandbox/provider/catalog');
    const services = generateCatalog().services.map((s) => svc(s.id, s.wire.public_name));
    for (const lang of ['az', 'tr']) {
      const names = naming.displayNames(services, lang, []);
      expect(new Set(names.values()).size).toBe(new Set(services.map((s) => s.name)).size);
      for (const s of services) {
        const name = names.get(s.id)!;
        expect(name, s.name).not.toMatch(/\b(Followers|Likes|Views|Comments|Shares|Subscribers|Members|Plays|Reviews|Traffic|Quality|Refill|Users|Drop|day)\b/i);
      }
    }
  });
});
