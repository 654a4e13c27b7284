import { describe, expect, it } from 'vitest';
import type { PublicService } from '../../../core/contracts/catalog';
import { filterServices, indexCatalog, resolveChoice, searchPlatform } from './catalogIndex';

const svc = (id: string, platform: string, group: PublicService['group'], name = `${platform} ${group} ${id}`): PublicService => ({
  id,
  platform,
  name,
  type: group,
  group,
  min: 10,
  max: 1000,
  step: 1,
  tiers: [{ minimum: 10, maximum: 1000, price: '1.00', pricingPer: 1000 }],
  displayPrice: '1.00',
  displayPer: 1000,
  hasParams: false,
});

describe('indexCatalog', () => {
  it('orders platforms instagram, tiktok, youtube, facebook first, then alphabetically, without a cap', () => {
    const names = ['vk', 'facebook', 'telegram', 'youtube', 'discord', 'tiktok', 'instagram', 'a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7'];
    const index = indexCatalog(names.map((p, i) => svc(String(i), p, 'likes')));
    expect(index.platforms).toEqual([
      'instagram', 'tiktok', 'youtube', 'facebook', 'a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'discord', 'telegram', 'vk',
    ]);
  });

  it('groups services per platform in the spec order, services without a platform under "other" (last), and leaves out empty groups', () => {
    const index = indexCatalog([
      svc('1', 'instagram', 'other'),
      svc('2', 'instagram', 'comments'),
      svc('3', 'instagram', 'likes'),
      svc('4', 'instagram', 'likes'),
      svc('5', '', 'views'),
      svc('6', ' TikTok ', 'views'),
    ]);
    expect(index.platforms).toEqual(['instagram', 'tiktok', 'other']);
    expect(index.byPlatform.get('other')!.all.map((s) => s.id)).toEqual(['5']);
    expect(searchPlatform(index.byPlatform.get('other')!, 'views 5')).toEqual([{ group: 'views', services: [index.byId.get('5')] }]);
    const ig = index.byPlatform.get('instagram')!;
    expect(ig.groups).toEqual(['likes', 'comments', 'other']);
    expect(ig.byGroup.get('likes')!.map((s) => s.id)).toEqual(['3', '4']);
    expect(ig.count).toBe(4);
    expect(index.byPlatform.get('tiktok')!.groups).toEqual(['views']);
  });
});

describe('filterServices', () => {
  const list = [
    svc('101', 'instagram', 'likes', 'Instagram Likes [Real, HQ]'),
    svc('202', 'instagram', 'likes', 'Instagram Likes [Bot, Instant]'),
    svc('303', 'instagram', 'likes', 'Story Likes [Premium]'),
  ];

  it('returns the same list for a blank query', () => {
    expect(filterServices(list, '  ')).toBe(list);
  });

  it('keeps services containing every word, case-insensitively, by name or id', () => {
    expect(filterServices(list, 'instagram real').map((s) => s.id)).toEqual(['101']);
    expect(filterServices(list, 'LIKES').map((s) => s.id)).toEqual(['101', '202', '303']);
    expect(filterServices(list, '#303').map((s) => s.id)).toEqual(['303']);
    expect(filterServices(list, 'tiktok')).toEqual([]);
  });
});

describe('searchPlatform', () => {
  const index = indexCatalog([
    svc('1001', 'instagram', 'likes', 'Instagram Likes [Real]'),
    svc('2473', 'instagram', 'views', 'Instagram Reels Views [HQ]'),
    svc('2474', 'instagram', 'followers', 'Instagram Followers [Real]'),
    svc('3000', 'instagram', 'views', 'Instagram Story Views [Real]'),
    svc('2473', 'tiktok', 'views', 'TikTok Views'),
  ]);
  const ig = index.byPlatform.get('instagram')!;
  const found = (q: string) => searchPlatform(ig, q).map(({ group, services }) => [group, services.map((s) => s.id)]);

  it('finds a service of another type by its id, with the type it belongs to', () => {
    expect(found('2473')).toEqual([['views', ['2473']]]);
    expect(found('#2473')).toEqual([['views', ['2473']]]);
  });

  it('looks through every type of the platform only, the types in the order of the type tabs', () => {
    expect(ig.all.map((s) => s.id)).toEqual(['1001', '2474', '2473', '3000']);
    expect(found('real')).toEqual([
      ['likes', ['1001']],
      ['followers', ['2474']],
      ['views', ['3000']],
    ]);
    expect(found('tiktok')).toEqual([]);
    expect(found('  ')).toEqual([]);
  });

  it('over 5,000 services finds what a plain scan of name, type and id finds, grouped by type (speed: bench/search.ts)', () => {
    const groups = ['likes', 'followers', 'views', 'shares', 'comments', 'other'] as const;
    const big = indexCatalog(Array.from({ length: 5000 }, (_, i) => svc(String(10_000 + i), 'instagram', groups[i % 6]!, `Instagram Service ${i} [Real, HQ]`)));
    const all = big.byPlatform.get('instagram')!;
    const scan = (query: string) => {
      const words = query.toLowerCase().split(/\s+/).filter(Boolean);
      return all.all.filter((s) => words.every((w) => `${s.name} ${s.type} #${s.id}`.toLowerCase().includes(w))).map((s) => s.id);
    };
    for (const query of ['service 12', 'HQ likes', '#14999', 'real views 49', 'nothing like this']) {
      const found = searchPlatform(all, query);
      expect(found.flatMap((g) => g.services.map((s) => s.id)).sort()).toEqual(scan(query).sort());
      for (const { group, services } of found) for (const s of services) expect(s.group).toBe(group);
    }
    expect(searchPlatform(all, '#14999')).toEqual([{ group: groups[4999 % 6], services: [expect.objectContaining({ id: '14999' })] }]);
  });
});

describe('resolveChoice', () => {
  const index = indexCatalog([svc('1', 'instagram', 'likes'), svc('2', 'instagram', 'views'), svc('3', 'tiktok', 'views')]);

  it('starts on the platform\'s first group with no service', () => {
    const choice = resolveChoice(index, 'instagram', {});
    expect(choice.groups).toEqual(['likes', 'views']);
    expect(choice.group).toBe('likes');
    expect(choice.groupServices.map((s) => s.id)).toEqual(['1']);
    expect(choice.service).toBeUndefined();
  });

  it('keeps a chosen service of the platform and shows its group', () => {
    const choice = resolveChoice(index, 'instagram', { serviceId: '2' });
    expect(choice.group).toBe('views');
    expect(choice.service?.id).toBe('2');
  });

  it('drops a service of another platform or of another group than the chosen one', () => {
    expect(resolveChoice(index, 'instagram', { serviceId: '3' }).service).toBeUndefined();
    expect(resolveChoice(index, 'instagram', { group: 'likes', serviceId: '2' }).service).toBeUndefined();
  });

  it('has no services for a platform the catalogue lacks', () => {
    const choice = resolveChoice(index, 'vk', { group: 'likes' });
    expect(choice.platformServices).toBeUndefined();
    expect(choice.group).toBeUndefined();
    expect(choice.groupServices).toEqual([]);
  });
});
