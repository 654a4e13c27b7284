import type { ServiceParam } from './catalog';
import type { LocalizedParam } from './contracts/catalog';
import type { Language } from './i18n';

/**
 * The order form's texts for a provider's extra params in the customer's language. Providers
 * word their params in English ("Comments", "Country", "Two-letter ISO country code…"); the
 * common kinds of param are recognised by field name and get the storefront's own label, hint,
 * placeholder and messages in every language, which an admin may override per kind and
 * language. Params of an unknown kind keep the provider's texts.
 */

export const PARAM_KINDS = [
  'comments',
  'usernames',
  'username',
  'hashtags',
  'keywords',
  'country',
  'gender',
  'answer_number',
  'media',
  'share_type',
  'reaction_type',
  'groups',
] as const;
export type ParamKind = (typeof PARAM_KINDS)[number];

/** The texts of one param: `required` and `invalid` are the messages of a missing value and of a value not offered. */
export const PARAM_TEXT_FIELDS = ['label', 'hint', 'placeholder', 'required', 'invalid'] as const;
export type ParamTextField = (typeof PARAM_TEXT_FIELDS)[number];
export type ParamTexts = Record<ParamTextField, string>;

/** An admin's texts for one kind (or unknown field name) in one language; null keeps the default. */
export type ParamTextOverride = { kind: string; lang: Language } & Record<ParamTextField, string | null>;

/** Field names providers use for each kind, in the form `paramKey` gives them. */
const ALIASES: Record<string, ParamKind> = {
  comments: 'comments',
  comment: 'comments',
  custom_comments: 'comments',
  usernames: 'usernames',
  usernames_list: 'usernames',
  mentions: 'usernames',
  username: 'username',
  user_name: 'username',
  hashtag: 'hashtags',
  hashtags: 'hashtags',
  keywords: 'keywords',
  keyword: 'keywords',
  search_keywords: 'keywords',
  geo_countries: 'country',
  geo_country: 'country',
  country: 'country',
  countries: 'country',
  gender: 'gender',
  answer_number: 'answer_number',
  answer: 'answer_number',
  poll_answer: 'answer_number',
  media: 'media',
  media_url: 'media',
  post_url: 'media',
  share_type: 'share_type',
  share_source: 'share_type',
  reaction_type: 'reaction_type',
  reaction: 'reaction_type',
  groups: 'groups',
};

/** A field name as a lookup key: lower-case, runs of anything but letters and digits as "_" ("geo-countries" → "geo_countries"). */
export const paramKey = (fieldName: string): string =>
  fieldName
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');

/** The kind of a param by its field name; null when it is not one the storefront words itself. */
export function paramKind(fieldName: string): ParamKind | null {
  return ALIASES[paramKey(fieldName)] ?? null;
}

/**
 * What overrides are keyed by: the kind for a known param, otherwise the field name's key, so
 * an admin can also word a param of a kind the storefront does not know.
 */
export const overrideKey = (fieldName: string): string => paramKind(fieldName) ?? paramKey(fieldName);

const t = (label: string, hint: string, placeholder: string, required: string, invalid: string): ParamTexts => ({
  label,
  hint,
  placeholder,
  required,
  invalid,
});

export const PARAM_TEXTS: Record<ParamKind, Record<Language, ParamTexts>> = {
  comments: {
    az: t('Şərhlər', 'Hər sətirdə bir şərh yazın; sətirlərin sayı miqdara bərabər olmalıdır.', 'Əla paylaşımdır!\nÇox bəyəndim 🔥', 'Şərhləri yazın — hər sətirdə bir şərh', 'Şərhləri yoxlayın'),
    tr: t('Yorumlar', 'Her satıra bir yorum yazın; satır sayısı miktarla aynı olmalıdır.', 'Harika paylaşım!\nÇok beğendim 🔥', 'Yorumları her satıra bir tane olacak şekilde yazın', 'Yorumları kontrol edin'),
    en: t('Comments', 'One comment per line; the number of lines should match the quantity.', 'Great post!\nLove this 🔥', 'Write the comments, one per line', 'Check the comments'),
  },
  usernames: {
    az: t('İstifadəçi adları', 'Hər sətirdə bir istifadəçi adı, @ işarəsi olmadan.', 'istifadeci1\nistifadeci2', 'İstifadəçi adlarını yazın — hər sətirdə bir ad', 'İstifadəçi adlarını yoxlayın'),
    tr: t('Kullanıcı adları', 'Her satıra bir kullanıcı adı, @ olmadan.', 'kullanici1\nkullanici2', 'Kullanıcı adlarını her satıra bir tane olacak şekilde yazın', 'Kullanıcı adlarını kontrol edin'),
    en: t('Usernames', 'One username per line, without @.', 'user1\nuser2', 'Enter the usernames, one per line', 'Check the usernames'),
  },
  username: {
    az: t('İstifadəçi adı', 'Hesabın istifadəçi adı, @ işarəsi olmadan.', 'istifadeci_adi', 'İstifadəçi adını yazın', 'İstifadəçi adını yoxlayın'),
    tr: t('Kullanıcı adı', 'Hesabın kullanıcı adı, @ olmadan.', 'kullanici_adi', 'Kullanıcı adını yazın', 'Kullanıcı adını kontrol edin'),
    en: t('Username', "The account's username, without @.", 'username', 'Enter the username', 'Check the username'),
  },
  hashtags: {
    az: t('Heşteq', 'Heşteq, # işarəsi ilə və ya onsuz.', '#artim', 'Heşteqi yazın', 'Heşteqi yoxlayın'),
    tr: t('Hashtag', 'Hashtag, # ile veya # olmadan.', '#artim', "Hashtag'i yazın", "Hashtag'i kontrol edin"),
    en: t('Hashtag', 'The hashtag, with or without #.', '#artim', 'Enter the hashtag', 'Check the hashtag'),
  },
  keywords: {
    az: t('Axtarış sözləri', 'İzləyicilərin videonu açmazdan əvvəl axtardığı sözlər.', 'bakı səyahət vloqu', 'Axtarış sözlərini yazın', 'Axtarış sözlərini yoxlayın'),
    tr: t('Arama kelimeleri', 'İzleyicilerin videoyu açmadan önce aradığı kelimeler.', 'bakü gezi vlogu', 'Arama kelimelerini yazın', 'Arama kelimelerini kontrol edin'),
    en: t('Search keywords', 'Words viewers search for before opening the video.', 'baku travel vlog', 'Enter the search keywords', 'Check the search keywords'),
  },
  country: {
    az: t('Ölkə', 'İki hərfli ISO ölkə kodu (məs. AZ, TR, US).', 'AZ', 'Ölkə kodunu yazın', 'İki hərfli ölkə kodu yazın'),
    tr: t('Ülke', 'İki harfli ISO ülke kodu (ör. TR, AZ, US).', 'TR', 'Ülke kodunu yazın', 'İki harfli bir ülke kodu yazın'),
    en: t('Country', 'Two-letter ISO country code (e.g. US, TR, AZ).', 'US', 'Enter the country code', 'Enter a two-letter country code'),
  },
  gender: {
    az: t('Cins', 'Göndəriləcək hesabların cinsi.', '', 'Cinsi seçin', 'Cins üçün variantlardan birini seçin'),
    tr: t('Cinsiyet', 'Gönderilecek hesapların cinsiyeti.', '', 'Cinsiyet seçin', 'Cinsiyet seçeneklerinden birini seçin'),
    en: t('Gender', 'The gender of the accounts that will be delivered.', '', 'Choose a gender', 'Choose one of the gender options'),
  },
  answer_number: {
    az: t('Cavabın nömrəsi', 'Sorğuda cavabın sırası, 1-dən başlayaraq.', '1', 'Cavabın nömrəsini yazın', 'Cavabın nömrəsini yoxlayın'),
    tr: t('Cevap numarası', "Ankette cevabın sırası, 1'den başlayarak.", '1', 'Cevap numarasını yazın', 'Cevap numarasını kontrol edin'),
    en: t('Answer number', 'Position of the answer in the poll, counting from 1.', '1', 'Enter the answer number', 'Check the answer number'),
  },
  media: {
    az: t('Paylaşımın linki', 'Xidmətin istifadə etdiyi paylaşımın və ya medianın linki.', 'https://…', 'Paylaşımın linkini yazın', 'Paylaşımın linkini yoxlayın'),
    tr: t('Gönderi bağlantısı', 'Hizmetin kullandığı gönderinin veya medyanın bağlantısı.', 'https://…', 'Gönderi bağlantısını yazın', 'Gönderi bağlantısını kontrol edin'),
    en: t('Post URL', 'Link to the post or media the service works with.', 'https://…', 'Enter the post URL', 'Check the post URL'),
  },
  share_type: {
    az: t('Paylaşım mənbəyi', 'Paylaşımların gələcəyi yer.', '', 'Paylaşım mənbəyini seçin', 'Paylaşım mənbələrindən birini seçin'),
    tr: t('Paylaşım kaynağı', 'Paylaşımların geleceği yer.', '', 'Paylaşım kaynağını seçin', 'Paylaşım kaynaklarından birini seçin'),
    en: t('Share source', 'Where the shares come from.', '', 'Choose the share source', 'Choose one of the share sources'),
  },
  reaction_type: {
    az: t('Reaksiya', 'Göndəriləcək reaksiya.', '', 'Reaksiyanı seçin', 'Reaksiyalardan birini seçin'),
    tr: t('Tepki', 'Gönderilecek tepki.', '', 'Tepkiyi seçin', 'Tepkilerden birini seçin'),
    en: t('Reaction', 'The reaction to send.', '', 'Choose a reaction', 'Choose one of the reactions'),
  },
  groups: {
    az: t('Qruplar', 'Hər sətirdə bir qrup linki.', 'https://…', 'Qrupları yazın — hər sətirdə bir qrup', 'Qrupları yoxlayın'),
    tr: t('Gruplar', 'Her satıra bir grup bağlantısı.', 'https://…', 'Grupları her satıra bir tane olacak şekilde yazın', 'Grupları kontrol edin'),
    en: t('Groups', 'One group link per line.', 'https://…', 'Enter the groups, one per line', 'Check the groups'),
  },
};

/** Option names the storefront words itself, by kind and option value. */
const OPTION_NAMES: Partial<Record<ParamKind, Record<string, Record<Language, string>>>> = {
  gender: {
    mixed: { az: 'Qarışıq', tr: 'Karışık', en: 'Mixed' },
    female: { az: 'Qadın', tr: 'Kadın', en: 'Female' },
    male: { az: 'Kişi', tr: 'Erkek', en: 'Male' },
  },
};

/** Overrides by `${key}:${lang}`, as `localizeParam` reads them. */
export type ParamOverrideMap = ReadonlyMap<string, ParamTextOverride>;

export const overrideMap = (rows: readonly ParamTextOverride[]): ParamOverrideMap => new Map(rows.map((r) => [`${r.kind}:${r.lang}`, r]));

/**
 * The param in `lang`: an admin's override first, then the storefront's text for a known kind,
 * then (only for unknown kinds) the provider's own text. Values, types and options stay as the
 * provider gave them; only option names of known kinds are translated.
 */
export function localizeParam(param: ServiceParam, lang: Language, overrides: ParamOverrideMap = new Map()): LocalizedParam {
  const kind = paramKind(param.fieldName);
  const key = kind ?? paramKey(param.fieldName);
  const own = kind ? PARAM_TEXTS[kind][lang] : null;
  const override = overrides.get(`${key}:${lang}`);
  const pick = (field: ParamTextField, provider: string): string => override?.[field] ?? own?.[field] ?? provider;
  const names = kind ? OPTION_NAMES[kind] : undefined;
  const out: LocalizedParam = {
    ...param,
    kind: key,
    fieldLabel: pick('label', param.fieldLabel || param.fieldName),
    description: pick('hint', param.description),
    placeholder: pick('placeholder', param.placeholder),
    options: names ? param.options.map((o) => ({ ...o, name: names[o.value.toLowerCase()]?.[lang] ?? o.name })) : param.options,
  };
  const required = override?.required ?? own?.required;
  const invalid = override?.invalid ?? own?.invalid;
  if (required) out.requiredMessage = required;
  if (invalid) out.invalidMessage = invalid;
  return out;
}
