import { V2_ERRORS, V2_QUANTITY_ERRORS, V2_STATUSES } from '../../../core/resellerApi';
import { ADD_FORMS, BALANCE_FORM, STATUS_FORMS, type V2Form, type V2Param } from '../../../core/resellerApiActions';

/**
 * The API page's examples, written from the definitions the handler reads calls with
 * (core/resellerApiActions.ts): each form's request from its parameters' examples, and the curl
 * and PHP examples from the same. Code is the same in every language; only the prose around it is
 * translated (the `api-docs` namespace).
 */

/** The refusals a client may meet, as the handler words them. */
export const ERRORS: readonly string[] = [
  ...Object.values(V2_ERRORS),
  V2_QUANTITY_ERRORS.min(100),
  V2_QUANTITY_ERRORS.max(50000),
];

export const STATUSES = V2_STATUSES;

/** A form's parameters and their example values as a call sends them: `key`, `action`, then the required ones (and `extra`). */
function callOf(form: V2Form, extra: readonly string[] = []): [V2Param | null, string, string][] {
  const sent = form.params.filter((p) => p.required || extra.includes(p.name));
  return [
    [null, 'key', 'YOUR_API_KEY'],
    [null, 'action', form.action],
    ...sent.map((p): [V2Param, string, string] => [p, p.name, form.examples?.[p.name] ?? p.example]),
  ];
}

/** A word as the shell reads it: bare when safe, else quoted (`$'…'` for several lines). */
function shellWord(text: string): string {
  if (/^[A-Za-z0-9_.,:/@=%+-]+$/.test(text)) return text;
  if (text.includes('\n')) return `$'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** One form's call with curl: links, lists and texts are URL-encoded, ids and numbers are not. */
export function curlOf(endpoint: string, form: V2Form, extra: readonly string[] = []): string {
  const fields = callOf(form, extra).map(([p, name, value]) => {
    const encode = p !== null && (p.format === 'link' || p.format === 'lines' || p.format === 'text');
    return `${encode ? '--data-urlencode' : '-d'} ${shellWord(`${name}=${value}`)}`;
  });
  // `key` and `action` on one line, each other field on its own.
  return [`curl -s -X POST ${endpoint}`, `${fields[0]} ${fields[1]}`, ...fields.slice(2)].join(' \\\n  ');
}

/** A value as PHP code: whole numbers bare, text quoted (double quotes for several lines). */
function phpValue(p: V2Param, value: string): string {
  if ((p.format === 'integer' || p.format === 'id') && /^\d+$/.test(value)) return value;
  if (value.includes('\n')) return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\$/g, '\\$').replace(/\n/g, '\\n')}"`;
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** An `add` form's call as the PHP example's `order(…)` argument. */
function phpOrder(form: V2Form, extra: readonly string[] = []): string {
  const fields = callOf(form, extra).flatMap(([p, name, value]) => (p ? [`'${name}' => ${phpValue(p, value)}`] : []));
  return `[${fields.join(', ')}]`;
}

export const curlExample = (endpoint: string) =>
  [
    `# Balance\n${curlOf(endpoint, BALANCE_FORM)}`,
    `# A new order\n${curlOf(endpoint, ADD_FORMS.Default)}`,
    `# Custom comments: one a line, no quantity\n${curlOf(endpoint, ADD_FORMS['Custom Comments'])}`,
    `# Drip-feed: quantity runs times, every interval minutes\n${curlOf(endpoint, ADD_FORMS.Default, ['runs', 'interval'])}`,
    `# Status of several orders\n${curlOf(endpoint, STATUS_FORMS.many)}`,
  ].join('\n\n');

export const phpExample = (endpoint: string) => `<?php
class Api
{
    public $url = '${endpoint}';
    public $key = 'YOUR_API_KEY';

    private function call(array $data)
    {
        $ch = curl_init($this->url);
        curl_setopt_array($ch, [
            CURLOPT_POST => true,
            CURLOPT_POSTFIELDS => http_build_query(array_merge(['key' => $this->key], $data)),
            CURLOPT_RETURNTRANSFER => true,
            CURLOPT_TIMEOUT => 30,
        ]);
        $result = curl_exec($ch);
        curl_close($ch);
        return json_decode($result);
    }

    public function services() { return $this->call(['action' => 'services']); }
    public function order(array $data) { return $this->call(array_merge(['action' => 'add'], $data)); }
    public function status($orderId) { return $this->call(['action' => 'status', 'order' => $orderId]); }
    public function multiStatus(array $ids) { return $this->call(['action' => 'status', 'orders' => implode(',', $ids)]); }
    public function refill($orderId) { return $this->call(['action' => 'refill', 'order' => $orderId]); }
    public function refillStatus($refillId) { return $this->call(['action' => 'refill_status', 'refill' => $refillId]); }
    public function cancel(array $ids) { return $this->call(['action' => 'cancel', 'orders' => implode(',', $ids)]); }
    public function balance() { return $this->call(['action' => 'balance']); }
}

$api = new Api();
$order = $api->order(${phpOrder(ADD_FORMS.Default)});
if (isset($order->error)) {
    echo 'Refused: ' . $order->error;
} else {
    print_r($api->status($order->order));
}

// Custom comments: one a line, no quantity
$comments = $api->order(${phpOrder(ADD_FORMS['Custom Comments'])});

// Drip-feed
$drip = $api->order(${phpOrder(ADD_FORMS.Default, ['runs', 'interval'])});`;
