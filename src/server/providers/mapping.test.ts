import { describe, expect, it } from 'vitest';
import { guessPlatform, guessType, mapQqtubeStatus, mapV2Status } from './mapping';

describe('status mapping', () => {
  it('maps QQTube status ids, refined by the name', () => {
    expect(mapQqtubeStatus(1, 'Completed')).toBe('completed');
    expect(mapQqtubeStatus(2, 'In progress')).toBe('in_progress');
    expect(mapQqtubeStatus(3, 'Processing')).toBe('in_progress');
    expect(mapQqtubeStatus(2, 'Pending')).toBe('pending');
    expect(mapQqtubeStatus(8, 'Refunded')).toBe('refunded');
    expect(mapQqtubeStatus(19, 'Stopped')).toBe('stopped');
    expect(mapQqtubeStatus(6, 'Partial')).toBe('partial');
    expect(mapQqtubeStatus(7, 'Canceled')).toBe('cancelled');
    expect(mapQqtubeStatus(11, 'Partially refunded')).toBe('partial');
    expect(mapQqtubeStatus(4, 'Error')).toBe('error');
    expect(mapQqtubeStatus(99, '')).toBe('error');
    // The id wins over the name where the id is known.
    expect(mapQqtubeStatus(1, 'Partial')).toBe('completed');
  });

  it('maps v2 status texts case-insensitively, keeping the space of "In progress"', () => {
    expect(mapV2Status('Pending')).toBe('pending');
    expect(mapV2Status('In progress')).toBe('in_progress');
    expect(mapV2Status('in  PROGRESS ')).toBe('in_progress');
    expect(mapV2Status('Processing')).toBe('processing');
    expect(mapV2Status('Completed')).toBe('completed');
    expect(mapV2Status('Partial')).toBe('partial');
    expect(mapV2Status('Canceled')).toBe('cancelled');
    expect(mapV2Status('CANCELLED')).toBe('cancelled');
    expect(mapV2Status('Refunded')).toBe('refunded');
    expect(mapV2Status('in_progress')).toBe('error');
    expect(mapV2Status('')).toBe('error');
  });
});

describe('guessing platform and type from v2 texts', () => {
  it('reads the platform from the category first, then the name', () => {
    expect(guessPlatform('Instagram Followers', 'whatever')).toBe('instagram');
    expect(guessPlatform('⭐ Best Sellers', 'TikTok Views [HQ]')).toBe('tiktok');
    expect(guessPlatform('IG Likes')).toBe('instagram');
    expect(guessPlatform('YT Subscribers')).toBe('youtube');
    expect(guessPlatform('LinkedIn Connections')).toBe('linkedin');
    expect(guessPlatform('X.com / Twitter Retweets')).toBe('twitter');
    expect(guessPlatform('Telegram Members')).toBe('telegram');
    expect(guessPlatform('Facebook Page Likes')).toBe('facebook');
    expect(guessPlatform('Website Traffic', 'Traffic from Google')).toBe('');
    expect(guessPlatform('Spotify Plays', null)).toBe('');
  });

  it('reads the type name from the first word that says what is sold', () => {
    expect(guessType('Instagram Followers [Real]')).toBe('Followers');
    expect(guessType('YouTube Subscribers')).toBe('Followers');
    expect(guessType('Telegram Channel Members')).toBe('Followers');
    expect(guessType('TikTok Likes + Views')).toBe('Likes');
    expect(guessType('Twitter Retweets')).toBe('Shares');
    expect(guessType('Facebook Custom Comments')).toBe('Comments');
    expect(guessType('Reels Plays')).toBe('Views');
    expect(guessType('Story Saves', 'Instagram Saves')).toBe('Other');
    expect(guessType('Something', 'Instagram Likes')).toBe('Likes');
  });
});
