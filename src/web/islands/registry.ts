import type { ComponentType } from 'react';
import { Notifications } from '../app/Notifications';
import { Header } from '../features/layout/Header';
import { PaymentErrorView } from '../features/payments/PaymentErrorPage';
import { PaymentSuccessView } from '../features/payments/PaymentSuccessPage';
import { ConsultButton } from '../features/services/ConsultButton';
import { ContactForm } from '../features/support/ContactForm';
import { ConsultationHost } from '../features/support/ConsultationHost';
import { TrackView } from '../features/tracking/TrackPage';

type Island = ComponentType<any>;

/**
 * Every island's component by name (./island.tsx): the browser finds its code here. They all
 * travel in the one islands script — together a few kilobytes next to React — so a public page
 * is its HTML and one script; dialogs load when first opened.
 */
export const ISLANDS: Record<string, Island> = {
  Header,
  ConsultationHost,
  Notifications,
  ConsultButton,
  ContactForm,
  Track: TrackView,
  PaymentSuccess: PaymentSuccessView,
  PaymentError: PaymentErrorView,
};
