/**
 * The reseller API's actions as the documentation page shows them: parameters and an example
 * answer per action, and the curl and PHP examples. Code is the same in every language; only
 * the prose around it is translated (the `api-docs` namespace).
 */

export interface ActionDoc {
  action: string;
  /** Parameter names besides `key` and `action`; `?` marks optional ones. */
  params: string[];
  reply: unknown;
}

export const ACTIONS: ActionDoc[] = [
  {
    action: 'services',
    params: [],
    reply: [{ service: 1042, name: 'TikTok Followers [HQ, 30d refill]', type: 'Default', category: 'TikTok Followers', rate: '0.90', min: '100', max: '50000', refill: true, cancel: true, dripfeed: false }],
  },
  { action: 'add', params: ['service', 'link', 'quantity', 'comments?', 'usernames?', 'username?', 'hashtag?', 'media?', 'answer_number?'], reply: { order: 100231 } },
  { action: 'status', params: ['order'], reply: { charge: '0.90', start_count: '3572', status: 'In progress', remains: '157', currency: 'USD' } },
  {
    action: 'status',
    params: ['orders'],
    reply: { '100231': { charge: '0.90', start_count: '3572', status: 'Completed', remains: '0', currency: 'USD' }, '100232': { error: 'Incorrect order ID' } },
  },
  { action: 'refill', params: ['order'], reply: { refill: 5001 } },
  { action: 'refill', params: ['orders'], reply: [{ order: 100231, refill: 5002 }, { order: 100232, refill: { error: 'Incorrect order ID' } }] },
  { action: 'refill_status', params: ['refill'], reply: { status: 'Completed' } },
  { action: 'refill_status', params: ['refills'], reply: [{ refill: 5001, status: 'Completed' }, { refill: 5002, status: 'Pending' }] },
  { action: 'cancel', params: ['orders'], reply: [{ order: 100233, cancel: 1 }, { order: 100231, cancel: { error: 'Cancel is available for active orders only' } }] },
  { action: 'balance', params: [], reply: { balance: '12.34', currency: 'USD' } },
];

export const ERRORS = [
  'Incorrect API key',
  'Incorrect request',
  'Incorrect service ID',
  'Incorrect link',
  'Incorrect order ID',
  'Incorrect refill ID',
  'Not enough funds on balance',
  'Quantity less than minimal 100',
  'Quantity more than maximum 50000',
  'You have active order with this link. Please wait until order being completed.',
  'Too many requests. Please slow down.',
];

export const STATUSES = ['Pending', 'Processing', 'In progress', 'Completed', 'Partial', 'Canceled'];

export const curlExample = (endpoint: string) => `# Balance
curl -s -X POST ${endpoint} \\
  -d key=YOUR_API_KEY -d action=balance

# A new order
curl -s -X POST ${endpoint} \\
  -d key=YOUR_API_KEY -d action=add \\
  -d service=1042 --data-urlencode link=https://www.tiktok.com/@artim.az -d quantity=1000

# Status of several orders
curl -s -X POST ${endpoint} \\
  -d key=YOUR_API_KEY -d action=status -d orders=100231,100232`;

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
$order = $api->order(['service' => 1042, 'link' => 'https://www.tiktok.com/@artim.az', 'quantity' => 1000]);
if (isset($order->error)) {
    echo 'Refused: ' . $order->error;
} else {
    print_r($api->status($order->order));
}`;
