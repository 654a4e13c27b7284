import { describe, expect, it } from 'vitest';
import type { PublicService } from '../../../core/contracts/catalog';
import { filterServices, indexCatalog } from './catalogIndex';

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

  it('groups services per platform in the spec order and leaves out blank platforms and empty groups', () => {
    const index = indexCatalog([
      svc('1', 'instagram', 'other'),
      svc('2', 'instagram', 'comments'),
      svc('3', 'instagram', 'likes'),
      svc('4', 'instagram', 'likes'),
      svc('5', '', 'views'),
      svc('6', ' TikTok ', 'views'),
    ]);
    expect(index.platforms).toEqual(['instagram', 'tiktok']);
    const ig = index.byPlatform.get('instagram')!;
    expect(ig.groups).toEqual(['likes', 'comments', 'other']);
    expect(ig.byGroup.get('likes')!.map((s) => s.id)).toEqual(['3', '4']);
    expect(ig.count).toBe(4);
    expect(index.byPlatform.get('tiktok')!.groups).toEqual(['views']);
    expect(index.byId.get('5')?.platform).toBe('');
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
