import { z } from 'zod';
import type { Language } from './i18n';
import { LINK_MAX_LENGTH } from './links';
import { DRIP_MAX_INTERVAL, DRIP_MAX_RUNS, DRIP_MIN_INTERVAL, DRIP_MIN_RUNS, listLines, ORDER_PARAM_MAX_LENGTH } from './orderRules';
import { V2_ERRORS, V2_FIELD_ERRORS, V2_MAX_IDS, type V2ServiceType } from './resellerApi';

/**
 * The reseller API's actions and their parameters, defined once: the handler (`/api/v2`) reads
 * every call with the schemas built here (`readForm`), and the page `/{lang}/api` renders its
 * tables and examples from the same definitions. A parameter added here is read by the handler
 * and shown on the page.
 *
 * An action may be called in more than one form: `status` with one `order` or with `orders`,
 * `add` with the fields of the service's type (`type` in `services`).
 */

export type Localized = Record<Language, string>;

export const V2_ACTIONS = ['services', 'add', 'status', 'refill', 'refill_status', 'cancel', 'balance'] as const;
export type V2Action = (typeof V2_ACTIONS)[number];

/** How a value is written, as the page names it. */
export const V2_FORMATS = {
  text: { az: 'mətn', tr: 'metin', en: 'text' },
  id: { az: 'id (rəqəm)', tr: 'kimlik (sayı)', en: 'id (number)' },
  ids: { az: 'vergüllə ayrılmış id-lər', tr: 'virgülle ayrılmış kimlikler', en: 'ids, comma-separated' },
  link: { az: 'URL', tr: 'URL', en: 'URL' },
  integer: { az: 'tam ədəd', tr: 'tam sayı', en: 'whole number' },
  lines: { az: 'mətn, hər sətirdə bir', tr: 'metin, satır başına bir', en: 'text, one per line' },
} as const satisfies Record<string, Localized>;
export type V2Format = keyof typeof V2_FORMATS;

/** One parameter: its name, whether it must be sent, how it is written and read. */
export interface V2Param<N extends string = string, S extends z.ZodType<unknown, string> = z.ZodType<unknown, string>, R extends boolean = boolean> {
  readonly name: N;
  readonly required: R;
  readonly format: V2Format;
  /** Other names the value is also read under. */
  readonly aliases?: readonly string[];
  readonly description: Localized;
  /** A value as a client sends it. */
  readonly example: string;
  /** Reads the value as sent; a refusal's message is the protocol's answer. */
  readonly schema: S;
}

/** One way of calling an action. */
export interface V2Form<P extends readonly V2Param[] = readonly V2Param[]> {
  /** Unique: the page's anchor of the form. */
  readonly id: string;
  readonly action: V2Action;
  /** `add`: the service type whose fields this form takes, and the name of the field the type adds. */
  readonly type?: V2ServiceType;
  readonly field?: string;
  readonly description: Localized;
  /** Besides `key` and `action`, which every call carries. */
  readonly params: P;
  /** Example values of this form's call where they differ from the parameters' own. */
  readonly examples?: Readonly<Record<string, string>>;
  /** An answer as the handler gives it. */
  readonly reply: unknown;
  /** Fields the answer carries beyond what panels answer (clients that do not know them ignore them). */
  readonly extraFields?: readonly V2AnswerField[];
}

/** A field of an answer, named and described on the page. */
export interface V2AnswerField {
  readonly name: string;
  readonly description: Localized;
}

const param = <const N extends string, S extends z.ZodType<unknown, string>, const R extends boolean>(p: V2Param<N, S, R>) => p;
const form = <const P extends readonly V2Param[]>(f: V2Form<P>) => f;

// --- reading values ---------------------------------------------------------------------------

/** A link sent without a scheme (`instagram.com/p/…`) is the https one it names. */
export const withScheme = (link: string) => (link && !/^[a-z][a-z0-9+.-]*:/i.test(link) ? `https://${link}` : link);

/** A comma list of ids, each once, in the order sent. */
const idList = (text: string) => [...new Set(text.split(',').map((s) => s.trim()).filter(Boolean))];

/** Text a service's field takes: trimmed, not empty, at most ORDER_PARAM_MAX_LENGTH characters. */
export const fieldSchema = (name: string) =>
  z
    .string({ error: V2_FIELD_ERRORS.required(name) })
    .trim()
    .min(1, { error: V2_FIELD_ERRORS.required(name) })
    .max(ORDER_PARAM_MAX_LENGTH, { error: V2_FIELD_ERRORS.tooLong(name, ORDER_PARAM_MAX_LENGTH) });

/** A line list: its non-empty lines, at least one. */
const linesSchema = (name: string) =>
  z
    .string({ error: V2_FIELD_ERRORS.required(name) })
    .max(ORDER_PARAM_MAX_LENGTH, { error: V2_FIELD_ERRORS.tooLong(name, ORDER_PARAM_MAX_LENGTH) })
    .transform(listLines)
    .refine((lines) => lines.length > 0, { error: V2_FIELD_ERRORS.required(name) });

const idListSchema = z
  .string({ error: V2_ERRORS.request })
  .transform(idList)
  .refine((ids) => ids.length > 0 && ids.length <= V2_MAX_IDS, { error: V2_ERRORS.request });

/** Runs and interval that are empty or not numbers (clients send `runs=undefined`) are not sent. */
const leniNumber = z
  .string()
  .trim()
  .transform((t) => (/^\d{1,6}$/.test(t) ? Number(t) : undefined));

// --- parameters -------------------------------------------------------------------------------

/** `key` and `action`: every call carries them. */
export const V2_COMMON_PARAMS = [
  { name: 'key', required: true, format: 'text', example: 'YOUR_API_KEY', description: { az: 'API açarınız', tr: 'API anahtarınız', en: 'Your API key' } },
  { name: 'action', required: true, format: 'text', example: '', description: { az: 'Əməliyyat', tr: 'İşlem', en: 'The action' } },
] as const satisfies readonly Omit<V2Param, 'schema'>[];

export const SERVICE_PARAM = param({
  name: 'service',
  required: true,
  format: 'id',
  example: '1042',
  description: { az: 'services-dən xidmət id-si', tr: 'services listesinden hizmet kimliği', en: 'Service id from services' },
  schema: z.string({ error: V2_ERRORS.service }).trim().min(1, { error: V2_ERRORS.service }),
});

const LINK = param({
  name: 'link',
  required: true,
  format: 'link',
  example: 'https://www.tiktok.com/@artim.az',
  description: {
    az: 'Səhifə, profil və ya paylaşımın linki; https:// yazılmayıbsa, o nəzərdə tutulur',
    tr: 'Sayfa, profil veya gönderi bağlantısı; https:// yazılmamışsa o varsayılır',
    en: 'Link to the page, profile or post; https:// is assumed when missing',
  },
  schema: z
    .string({ error: V2_ERRORS.link })
    .trim()
    .transform(withScheme)
    .pipe(z.string().min(1, { error: V2_ERRORS.link }).max(LINK_MAX_LENGTH, { error: V2_ERRORS.link })),
});

const QUANTITY = param({
  name: 'quantity',
  required: true,
  format: 'integer',
  example: '1000',
  description: {
    az: 'Ədəd sayı, xidmətin min və max hədləri daxilində',
    tr: 'Birim sayısı, hizmetin min ve max sınırları içinde',
    en: "Number of units, within the service's min and max",
  },
  // A whole number, also written with a zero fraction (`100.0`) as clients that keep numbers as floats send it.
  schema: z
    .string({ error: V2_ERRORS.request })
    .trim()
    .regex(/^\d{1,12}(?:\.0+)?$/, { error: V2_ERRORS.request })
    .transform(Number),
});

const RUNS = param({
  name: 'runs',
  required: false,
  format: 'integer',
  example: '5',
  description: {
    az: `Drip-feed: quantity neçə dəfə çatdırılsın (${DRIP_MIN_RUNS}–${DRIP_MAX_RUNS})`,
    tr: `Drip-feed: quantity kaç kez teslim edilsin (${DRIP_MIN_RUNS}–${DRIP_MAX_RUNS})`,
    en: `Drip-feed: how many times quantity is delivered (${DRIP_MIN_RUNS}–${DRIP_MAX_RUNS})`,
  },
  schema: leniNumber,
});

const INTERVAL = param({
  name: 'interval',
  required: false,
  format: 'integer',
  example: '60',
  description: {
    az: `Drip-feed: çatdırılmalar arasında dəqiqə (${DRIP_MIN_INTERVAL}–${DRIP_MAX_INTERVAL})`,
    tr: `Drip-feed: teslimatlar arasındaki dakika (${DRIP_MIN_INTERVAL}–${DRIP_MAX_INTERVAL})`,
    en: `Drip-feed: minutes between runs (${DRIP_MIN_INTERVAL}–${DRIP_MAX_INTERVAL})`,
  },
  schema: leniNumber,
});

const COMMENTS = param({
  name: 'comments',
  required: true,
  format: 'lines',
  example: 'Great post!\nLove this one',
  description: {
    az: 'Şərhlər, hər sətirdə bir; boş sətirlər sayılmır. Sətirlərin sayı miqdardır.',
    tr: 'Yorumlar, satır başına bir; boş satırlar sayılmaz. Satır sayısı miktardır.',
    en: 'Comments, one per line; empty lines are skipped. The number of lines is the quantity.',
  },
  schema: linesSchema('comments'),
});

const USERNAMES = param({
  name: 'usernames',
  required: true,
  format: 'lines',
  example: 'artim.az\nbaku.city',
  description: {
    az: 'İstifadəçi adları, hər sətirdə bir, @ olmadan; boş sətirlər sayılmır. Sətirlərin sayı miqdardır.',
    tr: 'Kullanıcı adları, satır başına bir, @ olmadan; boş satırlar sayılmaz. Satır sayısı miktardır.',
    en: 'Usernames, one per line, without @; empty lines are skipped. The number of lines is the quantity.',
  },
  schema: linesSchema('usernames'),
});

const HASHTAG = param({
  name: 'hashtag',
  required: true,
  format: 'text',
  aliases: ['hashtags'],
  example: '#artim',
  description: { az: 'Heşteq', tr: 'Hashtag', en: 'The hashtag' },
  schema: fieldSchema('hashtag'),
});

const USERNAME = param({
  name: 'username',
  required: true,
  format: 'text',
  example: 'artim.az',
  description: { az: 'İstifadəçi adı, @ olmadan', tr: 'Kullanıcı adı, @ olmadan', en: 'The username, without @' },
  schema: fieldSchema('username'),
});

const MEDIA = param({
  name: 'media',
  required: true,
  format: 'link',
  example: 'https://www.instagram.com/p/C1a2b3c4d5e/',
  description: { az: 'Bəyənənləri qeyd olunacaq medianın linki', tr: 'Beğenenleri etiketlenecek medyanın bağlantısı', en: 'Link to the media whose likers are mentioned' },
  schema: fieldSchema('media'),
});

const ANSWER_NUMBER = param({
  name: 'answer_number',
  required: true,
  format: 'integer',
  example: '2',
  description: { az: 'Sorğu cavabının nömrəsi, 1-dən başlayaraq', tr: "Anket cevabının numarası, 1'den başlayarak", en: "The poll answer's number, counting from 1" },
  schema: fieldSchema('answer_number'),
});

const ORDER = param({
  name: 'order',
  required: true,
  format: 'id',
  example: '100231',
  description: {
    az: 'Sifariş id-si (vergüllə ayrılmış siyahı orders kimi cavablanır)',
    tr: 'Sipariş kimliği (virgülle ayrılmış liste orders gibi yanıtlanır)',
    en: 'An order id (a comma list is answered as orders)',
  },
  schema: z.string({ error: V2_ERRORS.order }).trim(),
});

const ORDERS = param({
  name: 'orders',
  required: true,
  format: 'ids',
  example: '100231,100232',
  description: {
    az: `Vergüllə ayrılmış sifariş id-ləri (ən çoxu ${V2_MAX_IDS})`,
    tr: `Virgülle ayrılmış sipariş kimlikleri (en çok ${V2_MAX_IDS})`,
    en: `Order ids, comma-separated (at most ${V2_MAX_IDS})`,
  },
  schema: idListSchema,
});

const REFILL_ORDER = param({
  name: 'order',
  required: true,
  format: 'id',
  example: '100231',
  description: { az: 'Sifariş id-si', tr: 'Sipariş kimliği', en: 'An order id' },
  schema: idListSchema,
});

const REFILL = param({
  name: 'refill',
  required: true,
  format: 'id',
  example: '5001',
  description: { az: 'Bərpa id-si', tr: 'Telafi kimliği', en: 'A refill id' },
  schema: idListSchema,
});

const REFILLS = param({
  name: 'refills',
  required: true,
  format: 'ids',
  example: '5001,5002',
  description: {
    az: `Vergüllə ayrılmış bərpa id-ləri (ən çoxu ${V2_MAX_IDS})`,
    tr: `Virgülle ayrılmış telafi kimlikleri (en çok ${V2_MAX_IDS})`,
    en: `Refill ids, comma-separated (at most ${V2_MAX_IDS})`,
  },
  schema: idListSchema,
});

const CANCEL_ORDERS = param({ ...ORDERS, aliases: ['order'] });

// --- forms ------------------------------------------------------------------------------------

const ORDER_STATE = { charge: '0.90', start_count: '3572', status: 'In progress', remains: '157', currency: 'USD' };

const addForm = <const P extends readonly V2Param[]>(
  type: V2ServiceType,
  id: string,
  params: P,
  description: Localized,
  order: number,
  examples?: Readonly<Record<string, string>>,
) => form({ id, action: 'add', type, field: params.find((p) => !['service', 'link', 'quantity', 'runs', 'interval'].includes(p.name))?.name, params, description, examples, reply: { order } });

const INSTAGRAM_POST = 'https://www.instagram.com/p/C1a2b3c4d5e/';

const ADD_DEFAULT = addForm(
  'Default',
  'add',
  [SERVICE_PARAM, LINK, QUANTITY, RUNS, INTERVAL],
  {
    az: `Sifariş verir (type: Default). Drip-feed (services-də dripfeed: true olan xidmətlər): runs və interval da göndərin — quantity runs dəfə, hər interval dəqiqədən bir çatdırılır; runs × quantity birdən ödənilir. runs 0 və ya 1, yaxud rəqəm olmayan runs və ya interval adi sifariş verir.`,
    tr: `Sipariş verir (type: Default). Drip-feed (services listesinde dripfeed: true olan hizmetler): runs ve interval da gönderin — quantity runs kez, her interval dakikada bir teslim edilir; runs × quantity tek seferde ücretlendirilir. runs 0 veya 1 ya da sayı olmayan runs veya interval sıradan bir sipariş verir.`,
    en: `Places an order (type: Default). Drip-feed, for services with dripfeed: true in services: send runs and interval too — quantity is delivered runs times, one run every interval minutes, and runs × quantity is charged at once. Runs of 0 or 1, or a runs or interval that is not a number, make an ordinary order.`,
  },
  100231,
);

const ADD_COMMENTS = addForm(
  'Custom Comments',
  'add-custom-comments',
  [SERVICE_PARAM, LINK, COMMENTS],
  {
    az: 'Xüsusi şərhlər (type: Custom Comments). quantity göndərilmir: sifariş comments-dəki boş olmayan sətirlərin sayı qədərdir və o qədər ödənilir; göndərilən quantity nəzərə alınmır. Sətirlər xidmətin min-indən az və ya max-ından çoxdursa, miqdar kimi rədd edilir.',
    tr: 'Özel yorumlar (type: Custom Comments). quantity gönderilmez: sipariş comments içindeki boş olmayan satır sayısı kadardır ve o kadar ücretlendirilir; gönderilen bir quantity dikkate alınmaz. Satırlar hizmetin min değerinden az veya max değerinden çoksa miktar olarak reddedilir.',
    en: "Custom comments (type: Custom Comments). No quantity: the order is for as many comments as comments has non-empty lines, and that is what is charged; a quantity sent along is ignored. Fewer lines than the service's min, or more than its max, are refused as a quantity would be.",
  },
  100232,
  { service: '1187', link: INSTAGRAM_POST },
);

const ADD_MENTIONS_LIST = addForm(
  'Mentions Custom List',
  'add-mentions-custom-list',
  [SERVICE_PARAM, LINK, USERNAMES],
  {
    az: 'Siyahıdakı istifadəçiləri qeyd etmək (type: Mentions Custom List). quantity göndərilmir: sifariş usernames-dəki boş olmayan sətirlərin sayı qədərdir və o qədər ödənilir; göndərilən quantity nəzərə alınmır.',
    tr: 'Listedeki kullanıcıları etiketleme (type: Mentions Custom List). quantity gönderilmez: sipariş usernames içindeki boş olmayan satır sayısı kadardır ve o kadar ücretlendirilir; gönderilen bir quantity dikkate alınmaz.',
    en: 'Mentions of the users listed (type: Mentions Custom List). No quantity: the order is for as many mentions as usernames has non-empty lines, and that is what is charged; a quantity sent along is ignored.',
  },
  100233,
  { service: '1203', link: INSTAGRAM_POST },
);

const ADD_HASHTAG = addForm(
  'Mentions Hashtag',
  'add-mentions-hashtag',
  [SERVICE_PARAM, LINK, QUANTITY, HASHTAG],
  { az: 'Heşteqlə qeydlər (type: Mentions Hashtag).', tr: 'Hashtag ile etiketlemeler (type: Mentions Hashtag).', en: 'Mentions by hashtag (type: Mentions Hashtag).' },
  100234,
  { service: '1210', link: INSTAGRAM_POST, quantity: '500' },
);

const ADD_USER_FOLLOWERS = addForm(
  'Mentions User Followers',
  'add-mentions-user-followers',
  [SERVICE_PARAM, LINK, QUANTITY, USERNAME],
  {
    az: 'İstifadəçinin izləyicilərini qeyd etmək (type: Mentions User Followers).',
    tr: 'Bir kullanıcının takipçilerini etiketleme (type: Mentions User Followers).',
    en: "Mentions of a user's followers (type: Mentions User Followers).",
  },
  100235,
  { service: '1214', link: INSTAGRAM_POST, quantity: '500' },
);

const ADD_MEDIA_LIKERS = addForm(
  'Mentions Media Likers',
  'add-mentions-media-likers',
  [SERVICE_PARAM, LINK, QUANTITY, MEDIA],
  {
    az: 'Medianı bəyənənləri qeyd etmək (type: Mentions Media Likers).',
    tr: 'Bir medyayı beğenenleri etiketleme (type: Mentions Media Likers).',
    en: 'Mentions of the likers of a media (type: Mentions Media Likers).',
  },
  100236,
  { service: '1219', link: INSTAGRAM_POST, quantity: '500' },
);

const ADD_POLL = addForm(
  'Poll',
  'add-poll',
  [SERVICE_PARAM, LINK, QUANTITY, ANSWER_NUMBER],
  { az: 'Sorğuda səslər (type: Poll).', tr: 'Ankette oylar (type: Poll).', en: 'Votes in a poll (type: Poll).' },
  100237,
  { service: '2476', link: 'https://x.com/artim_az/status/1790000000000000000', quantity: '100' },
);

/** `add` in the form of each service type. */
export const ADD_FORMS = {
  Default: ADD_DEFAULT,
  'Custom Comments': ADD_COMMENTS,
  'Mentions Custom List': ADD_MENTIONS_LIST,
  'Mentions Hashtag': ADD_HASHTAG,
  'Mentions User Followers': ADD_USER_FOLLOWERS,
  'Mentions Media Likers': ADD_MEDIA_LIKERS,
  Poll: ADD_POLL,
} as const satisfies Record<V2ServiceType, V2Form>;

/**
 * The service figures `services` answers with (docs/rules.md#service-figures), each only for a
 * service with enough finished orders to tell it.
 */
export const SERVICE_FIGURE_FIELDS = {
  start: {
    name: 'start_time',
    description: {
      az: 'Adətən başlama vaxtı: son bitmiş sifarişlərdə sifarişdən başlanğıca qədər dəqiqələrin medianı (tam ədəd).',
      tr: 'Olağan başlama süresi: son biten siparişlerde siparişten başlangıca kadar geçen dakikaların medyanı (tam sayı).',
      en: 'Usual start time: the median minutes from order to start over the last finished orders (a whole number).',
    },
  },
  average: {
    name: 'average_time',
    description: {
      az: 'Orta vaxt: son tamamlanmış sifarişlərdə sifarişdən tamamlanmaya qədər dəqiqələrin medianı (tam ədəd).',
      tr: 'Ortalama süre: son tamamlanan siparişlerde siparişten tamamlanmaya kadar geçen dakikaların medyanı (tam sayı).',
      en: 'Average time: the median minutes from order to completion over the last completed orders (a whole number).',
    },
  },
  rate: {
    name: 'completion_rate',
    description: {
      az: 'Tamamlanma faizi: son bitmiş sifarişlərdən tam tamamlananların payı, faizlə (0–100).',
      tr: 'Tamamlanma oranı: son biten siparişlerden tamamen tamamlananların payı, yüzde olarak (0–100).',
      en: 'Completion rate: the share of the last finished orders completed in full, in percent (0–100).',
    },
  },
} as const satisfies Record<string, V2AnswerField>;

export const SERVICES_FORM = form({
  id: 'services',
  action: 'services',
  params: [],
  description: {
    az: 'Kataloq: hər xidmətin id-si, adı, sifariş formu növü (type), kateqoriyası, 1000 ədəd üçün qiymətiniz, minimum və maksimum miqdar, bərpa (refill), ləğv (cancel) və drip-feed imkanı.',
    tr: 'Katalog: her hizmetin kimliği, adı, sipariş formu türü (type), kategorisi, 1.000 birim için fiyatınız, en az ve en çok miktar, telafi (refill), iptal (cancel) ve drip-feed imkânı.',
    en: 'The catalogue: each service with its id, name, order form type, category, your rate per 1,000, minimum and maximum quantity, and whether it offers refills, cancelling and drip-feed.',
  },
  reply: [
    { service: 1042, name: 'TikTok Followers [HQ, 30d refill]', type: 'Default', category: 'TikTok Followers', rate: '0.90', min: '100', max: '50000', refill: true, cancel: true, dripfeed: false, start_time: 12, average_time: 95, completion_rate: 96 },
    { service: 1187, name: 'Instagram Custom Comments [Real]', type: 'Custom Comments', category: 'Instagram Comments', rate: '12.5', min: '5', max: '1000', refill: false, cancel: false, dripfeed: false },
  ],
  extraFields: Object.values(SERVICE_FIGURE_FIELDS),
});

export const STATUS_FORMS = {
  one: form({
    id: 'status',
    action: 'status',
    params: [ORDER],
    description: {
      az: 'Bir sifarişin vəziyyəti: məbləği, çatdırılma başlayanda say, status və qalan ədəd. Drip-feed sifarişi runs, runs_sent və interval da qaytarır.',
      tr: 'Bir siparişin durumu: tutarı, teslimat başladığındaki sayı, durum ve kalan birim. Drip-feed siparişi runs, runs_sent ve interval da döner.',
      en: 'The state of one order: its charge, the count when delivery started, the status and how many units remain. A drip-feed order also answers runs, runs_sent and interval.',
    },
    reply: ORDER_STATE,
  }),
  many: form({
    id: 'status-orders',
    action: 'status',
    params: [ORDERS],
    description: {
      az: `Birdən ${V2_MAX_IDS}-ə qədər sifarişin vəziyyəti, soruşulan sırada. Sizin sifarişiniz olmayan id yerinə {"error":"Incorrect order ID"} qaytarır.`,
      tr: `Tek seferde ${V2_MAX_IDS}'e kadar siparişin durumu, sorulan sırayla. Sizin olmayan bir kimlik yerine {"error":"Incorrect order ID"} döner.`,
      en: `The state of up to ${V2_MAX_IDS} orders at once, in the order asked. An id that is not one of your orders answers {"error":"Incorrect order ID"} in its place.`,
    },
    reply: { '100231': { ...ORDER_STATE, status: 'Completed', remains: '0' }, '100232': { error: V2_ERRORS.order } },
  }),
};

export const REFILL_FORMS = {
  one: form({
    id: 'refill',
    action: 'refill',
    params: [REFILL_ORDER],
    description: {
      az: 'Bərpası olan xidmətin tamamlanmış sifarişi üçün, tamamlanmadan hesablanan bərpa müddəti ərzində bərpa istəyir: 24 saatda ən çox bir dəfə, eyni linkə sonradan sifariş verilməyibsə. Bərpa id-sini qaytarır.',
      tr: 'Telafisi olan bir hizmetin tamamlanmış siparişi için, tamamlanmadan itibaren sayılan telafi süresi içinde telafi ister: 24 saatte en fazla bir kez ve aynı bağlantıya sonradan sipariş verilmediyse. Telafi kimliğini döner.',
      en: 'Asks for a refill of a completed order of a service with refills, within its refill period counted from completion: at most once in 24 hours, and not once a later order targets the same link. Answers the refill id.',
    },
    reply: { refill: 5001 },
  }),
  many: form({
    id: 'refill-orders',
    action: 'refill',
    params: [ORDERS],
    description: {
      az: `${V2_MAX_IDS}-ə qədər sifariş üçün bərpa istəyir; hər biri öz bərpa id-sini və ya xətasını alır.`,
      tr: `${V2_MAX_IDS}'e kadar sipariş için telafi ister; her biri kendi telafi kimliğini veya hatasını alır.`,
      en: `Asks for refills of up to ${V2_MAX_IDS} orders; each gets its refill id or its own error.`,
    },
    reply: [{ order: 100231, refill: 5002 }, { order: 100232, refill: { error: V2_ERRORS.order } }],
  }),
};

export const REFILL_STATUS_FORMS = {
  one: form({
    id: 'refill_status',
    action: 'refill_status',
    params: [REFILL],
    description: {
      az: 'Bərpanın vəziyyəti: Pending, In progress, Completed, Rejected və ya Error.',
      tr: 'Bir telafinin durumu: Pending, In progress, Completed, Rejected veya Error.',
      en: 'The state of a refill: Pending, In progress, Completed, Rejected or Error.',
    },
    reply: { status: 'Completed' },
  }),
  many: form({
    id: 'refill_status-refills',
    action: 'refill_status',
    params: [REFILLS],
    description: { az: `${V2_MAX_IDS}-ə qədər bərpanın vəziyyəti.`, tr: `${V2_MAX_IDS}'e kadar telafinin durumu.`, en: `The states of up to ${V2_MAX_IDS} refills.` },
    reply: [{ refill: 5001, status: 'Completed' }, { refill: 5002, status: 'Pending' }],
  }),
};

export const CANCEL_FORM = form({
  id: 'cancel',
  action: 'cancel',
  params: [CANCEL_ORDERS],
  description: {
    az: `Ləğvə icazə verən xidmətlərin ${V2_MAX_IDS}-ə qədər aktiv sifarişini ləğv edir (order da eyni cür oxunur). Çatdırılmayan hissə provayder təsdiqləyəndə balansınıza qaytarılır.`,
    tr: `İptale izin veren hizmetlerin ${V2_MAX_IDS}'e kadar aktif siparişini iptal eder (order da aynı şekilde okunur). Teslim edilmeyen kısım sağlayıcı onayladığında bakiyenize iade edilir.`,
    en: `Cancels up to ${V2_MAX_IDS} active orders of services that allow cancelling (order is read the same way). What was not delivered is refunded to your balance once the provider confirms.`,
  },
  reply: [{ order: 100233, cancel: 1 }, { order: 100231, cancel: { error: 'Cancel is available for active orders only' } }],
});

export const BALANCE_FORM = form({
  id: 'balance',
  action: 'balance',
  params: [],
  description: { az: 'USD ilə balansınız.', tr: 'USD cinsinden bakiyeniz.', en: 'Your balance in USD.' },
  reply: { balance: '12.34', currency: 'USD' },
});

/** Every form of every action, in the page's order. */
export const V2_FORMS: readonly V2Form[] = [
  SERVICES_FORM,
  ...Object.values(ADD_FORMS),
  STATUS_FORMS.one,
  STATUS_FORMS.many,
  REFILL_FORMS.one,
  REFILL_FORMS.many,
  REFILL_STATUS_FORMS.one,
  REFILL_STATUS_FORMS.many,
  CANCEL_FORM,
  BALANCE_FORM,
];

// --- the handler's reading --------------------------------------------------------------------

type ShapeOf<P extends readonly V2Param[]> = {
  [K in P[number] as K['name']]: K['required'] extends true ? K['schema'] : z.ZodOptional<K['schema']>;
};
/** The values a form reads; for a union of forms, the union of their values. */
export type FormValues<F> = F extends V2Form<infer P> ? z.output<z.ZodObject<ShapeOf<P>>> : never;

/**
 * Each form's schema, built once for the parameters it was built from (a definition that gains a
 * parameter gets a new one): zod compiles an object schema on its first parse, which costs far
 * more than the parse itself.
 */
const formSchemas = new WeakMap<V2Form, { params: readonly V2Param[]; schema: z.ZodObject }>();

/** The schema a form's call is read with: its parameters, required or optional as defined; other fields are ignored. */
export function formSchema<P extends readonly V2Param[]>(f: V2Form<P>): z.ZodObject<ShapeOf<P>> {
  let built = formSchemas.get(f);
  if (!built || built.params.length !== f.params.length || built.params.some((p, i) => p !== f.params[i])) {
    built = { params: [...f.params], schema: z.object(Object.fromEntries(f.params.map((p) => [p.name, p.required ? p.schema : p.schema.optional()]))) };
    formSchemas.set(f, built);
  }
  return built.schema as unknown as z.ZodObject<ShapeOf<P>>;
}

/** The value sent under a parameter's name or one of its aliases. */
const sentValue = (p: V2Param, sent: Readonly<Record<string, string>>): string | undefined =>
  [p.name, ...(p.aliases ?? [])].map((n) => (Object.hasOwn(sent, n) ? sent[n] : undefined)).find((v) => v !== undefined);

/** One required parameter read on its own. */
export function readParam<S extends z.ZodType<unknown, string>>(p: V2Param<string, S>, sent: Readonly<Record<string, string>>): { value: z.output<S> } | { error: string } {
  const read = p.schema.safeParse(sentValue(p, sent));
  return read.success ? { value: read.data } : { error: read.error.issues[0]?.message ?? V2_ERRORS.request };
}

/**
 * A call's fields read as the form defines them (a value sent under an alias counts as the
 * parameter's), or the protocol's refusal of the first parameter that is wrong, in the form's order.
 */
export function readForm<F extends V2Form>(f: F, sent: Readonly<Record<string, string>>): { values: FormValues<F> } | { error: string } {
  const input: Record<string, string> = {};
  for (const p of f.params) {
    const value = sentValue(p, sent);
    if (value !== undefined) input[p.name] = value;
  }
  const read = formSchema(f).safeParse(input);
  return read.success ? { values: read.data as FormValues<F> } : { error: read.error.issues[0]?.message ?? V2_ERRORS.request };
}
