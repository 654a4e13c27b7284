import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isCommentService,
  OTHER_PLATFORM,
  platformKey,
  platformDisplayName,
  platformsFromServices,
  serviceGroup,
  serviceGroupOf,
} from './platforms';

const services = (...platforms: (string | null | undefined)[]) => platforms.map((platform) => ({ platform }));

describe('platformsFromServices', () => {
  it('puts the priority platforms first, then the rest alphabetically', () => {
    expect(
      platformsFromServices(services('twitter', 'facebook', 'linkedin', 'youtube', 'telegram', 'tiktok', 'instagram')),
    ).toEqual(['instagram', 'tiktok', 'youtube', 'facebook', 'linkedin', 'telegram', 'twitter']);
  });

  it('lists services without a platform under "other", last; lower-cases and de-duplicates', () => {
    expect(
      platformsFromServices([...services('Instagram', ' instagram ', '', '   ', null, undefined, 'Spotify', 'spotify', 'zing', 'Other'), {}]),
    ).toEqual(['instagram', 'spotify', 'zing', OTHER_PLATFORM]);
    expect(platformsFromServices(services('', 'instagram'))).toEqual(['instagram', 'other']);
    expect(platformKey('  ')).toBe('other');
    expect(platformKey(' TikTok ')).toBe('tiktok');
  });

  it('counts "other" within the cap of 12, after every named platform', () => {
    const eleven = services(...'abcdefghijk'.split('').map((c) => `p${c}`), '');
    expect(platformsFromServices(eleven).at(-1)).toBe('other');
    expect(platformsFromServices(eleven)).toHaveLength(12);
    const twelve = services(...'abcdefghijkl'.split('').map((c) => `p${c}`), '');
    expect(platformsFromServices(twelve)).not.toContain('other');
  });

  it('keeps the priority order even when some priority platforms are absent', () => {
    expect(platformsFromServices(services('discord', 'facebook', 'tiktok'))).toEqual(['tiktok', 'facebook', 'discord']);
  });

  it('caps the list at 12', () => {
    const many = services(...'abcdefghijklmnop'.split('').map((c) => `p${c}`), 'youtube');
    const result = platformsFromServices(many);
    expect(result).toHaveLength(12);
    expect(result[0]).toBe('youtube');
    expect(result.slice(1)).toEqual(['pa', 'pb', 'pc', 'pd', 'pe', 'pf', 'pg', 'ph', 'pi', 'pj', 'pk']);
  });

  it('returns an empty list for no services', () => {
    expect(platformsFromServices([])).toEqual([]);
  });

  it('always yields unique, lower-case, non-blank names, at most 12', () => {
    fc.assert(
      fc.property(fc.array(fc.option(fc.string(), { nil: undefined })), (names) => {
        const result = platformsFromServices(services(...names));
        expect(new Set(result).size).toBe(result.length);
        expect(result.length).toBeLessThanOrEqual(12);
        for (const p of result) {
          expect(p).toBe(p.trim().toLowerCase());
          expect(p).not.toBe('');
        }
      }),
    );
  });
});

describe('platformDisplayName', () => {
  it.each([
    ['instagram', 'Instagram'],
    ['tiktok', 'TikTok'],
    ['youtube', 'YouTube'],
    ['linkedin', 'LinkedIn'],
    ['twitter', 'X (Twitter)'],
    ['x', 'X (Twitter)'],
    ['facebook', 'Facebook'],
    ['telegram', 'Telegram'],
    ['spotify', 'Spotify'],
    ['', ''],
  ])('%j → %j', (p, name) => {
    expect(platformDisplayName(p)).toBe(name);
  });
});

describe('serviceGroup', () => {
  it.each([
    ['Likes', 'likes'],
    ['Page Likes', 'likes'],
    ['Post Reactions', 'likes'],
    ['Comment Likes', 'likes'],
    ['Followers', 'followers'],
    ['Instagram Followers [Refill]', 'followers'],
    ['Subscribers', 'followers'],
    ['Channel Members', 'followers'],
    ['Video Views', 'views'],
    ['Story Views', 'views'],
    ['Live Stream Viewers', 'views'],
    ['Watch Time', 'views'],
    ['Plays', 'views'],
    ['Impressions', 'views'],
    ['Shares/Retweets', 'shares'],
    ['Retweets', 'shares'],
    ['Reposts', 'shares'],
    ['SHARES', 'shares'],
    ['Custom Comments', 'comments'],
    ['Random Comments', 'comments'],
    ['Comment Replies', 'comments'],
    ['custom comments', 'comments'],
    ['Google Reviews', 'other'],
    ['Playlist Saves', 'other'],
    ['Package', 'other'],
    ['Default', 'other'],
    ['', 'other'],
  ] as const)('%j → %s', (type, group) => {
    expect(serviceGroup(type)).toBe(group);
  });
});

describe('serviceGroupOf / isCommentService', () => {
  it('uses the type name first', () => {
    expect(serviceGroupOf({ type: 'Likes', name: 'Comments pack' })).toBe('likes');
    expect(isCommentService({ type: 'Custom Comments', name: 'Instagram' })).toBe(true);
  });

  it('falls back to the service name when the type says nothing', () => {
    expect(serviceGroupOf({ type: 'Default', name: 'TikTok Custom Comments' })).toBe('comments');
    expect(isCommentService({ type: 'Default', name: 'TikTok Custom Comments' })).toBe(true);
    expect(isCommentService({ type: 'Default', name: 'TikTok Views' })).toBe(false);
    expect(isCommentService({ type: 'Default' })).toBe(false);
  });

  it('is false for other groups', () => {
    expect(isCommentService({ type: 'Followers' })).toBe(false);
    expect(isCommentService({ type: 'Comment Likes' })).toBe(false);
  });
});
