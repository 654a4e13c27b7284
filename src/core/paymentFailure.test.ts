import { describe, expect, it } from 'vitest';
import { paymentFailureReason } from './paymentFailure';

describe('paymentFailureReason', () => {
  it.each([
    ['005', 'Declined by the issuer', 'declined'],
    ['05', null, 'declined'],
    ['051', null, 'insufficient_funds'],
    ['51', 'whatever', 'insufficient_funds'],
    ['54', null, 'expired_card'],
    ['14', null, 'invalid_card'],
    ['65', null, 'limit_exceeded'],
    ['82', null, 'authentication_failed'],
    [null, 'Insufficient funds on the card', 'insufficient_funds'],
    [null, 'Card expired', 'expired_card'],
    ['100', 'Cancelled by the customer', 'cancelled'],
    [null, '3D Secure authentication failed', 'authentication_failed'],
    [null, 'Transaction refused', 'declined'],
    [null, 'Server is busy', 'other'],
    [null, null, 'other'],
    ['abc', '', 'other'],
    // PayTR's failed_reason_code and failed_reason_msg (dev.paytr.com, error codes).
    ['0', 'Kartın limiti / bakiyesi yetersiz', 'insufficient_funds'],
    ['1', 'Kimlik Doğrulama yapılmadı. Lütfen tekrar deneyin ve işlemi tamamlayın.', 'authentication_failed'],
    ['2', 'Kimlik Doğrulama başarısız. Lütfen tekrar deneyin ve şifreyi doğru girin.', 'authentication_failed'],
    ['3', 'Güvenlik kontrolü sonrası onay verilmedi veya kontrol yapılamadı.', 'declined'],
    ['6', 'Müşteri ödeme yapmaktan vazgeçti ve ödeme sayfasından ayrıldı.', 'cancelled'],
    ['8', 'Bu karta taksit yapılamamaktadır.', 'declined'],
    ['9', 'Bu kart ile işlem yetkisi bulunmamaktadır.', 'declined'],
    ['10', 'Bu işlemde 3D Secure kullanılmalıdır.', 'authentication_failed'],
  ] as const)('%s / %s → %s', (code, message, reason) => {
    expect(paymentFailureReason(code, message)).toBe(reason);
  });
});
