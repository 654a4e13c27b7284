import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { hc } from 'hono/client';
import type {
  AdminTicketView,
  ConsultationStatus,
  CreateTicketInput,
  TicketListQuery,
  TicketMessageView,
  TicketOrderView,
  TicketStatus,
  TicketView,
} from '../../../core/contracts/support';
import type { SupportAdminApiType } from '../../../server/support/routes';
import { api, unwrap } from '../../lib/api';

export { SupportApiError, sendConsultation, sendContactMessage } from './http';

export interface Thread<T extends TicketView = TicketView> {
  ticket: T;
  messages: TicketMessageView[];
  /** The team's view: the orders the ticket is about, as they are now. */
  orders?: TicketOrderView[];
}

/** Query keys, one factory per resource. */
export const supportKeys = {
  own: ['support', 'own'] as const,
  ownTickets: () => [...supportKeys.own, 'tickets'] as const,
  ownThread: (id: string) => [...supportKeys.own, 'thread', id] as const,
  ownOrders: () => [...supportKeys.own, 'orders'] as const,
  admin: ['support', 'admin'] as const,
  adminTickets: (q: TicketListQuery) => [...supportKeys.admin, 'tickets', q] as const,
  adminThread: (id: string) => [...supportKeys.admin, 'thread', id] as const,
  contact: ['support', 'admin', 'contact'] as const,
  consultations: (status?: ConsultationStatus) => [...supportKeys.admin, 'consultations', status ?? 'all'] as const,
};

// ─── The customer ─────────────────────────────────────────────────────────────────────────

export function useOwnTickets() {
  return useQuery({
    queryKey: supportKeys.ownTickets(),
    queryFn: async () => (await unwrap((o) => api.support.tickets.$get({}, o))).tickets,
  });
}

export function useOwnThread(id: string | null) {
  return useQuery({
    queryKey: supportKeys.ownThread(id ?? ''),
    queryFn: () => unwrap((o) => api.support.tickets[':id'].messages.$get({ param: { id: encodeURIComponent(id!) } }, o)),
    enabled: !!id,
  });
}

/** The customer's recent orders, to name in a ticket about orders. */
export function useOwnOrders(enabled: boolean) {
  return useQuery({
    queryKey: supportKeys.ownOrders(),
    queryFn: async () => (await unwrap((o) => api.orders.$get({}, o))).orders,
    enabled,
    staleTime: 30_000,
  });
}

export function useCreateTicket() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (input: CreateTicketInput) => (await unwrap((o) => api.support.tickets.$post({ json: input }, o))).ticket,
    onSuccess: () => qc.invalidateQueries({ queryKey: supportKeys.ownTickets() }),
  });
}

export function useSendMessage(ticketId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (message: string) =>
      (await unwrap((o) => api.support.tickets[':id'].messages.$post({ param: { id: encodeURIComponent(ticketId) }, json: { message } }, o))).message,
    onSuccess: (message) => {
      qc.setQueryData<Thread>(supportKeys.ownThread(ticketId), (old) => (old ? { ...old, messages: [...old.messages, message] } : old));
      void qc.invalidateQueries({ queryKey: supportKeys.own });
    },
  });
}


// ─── The team ─────────────────────────────────────────────────────────────────────────────

/** The team's support routes under /api/admin, typed by the server's `SupportAdminApiType`. */
const adminApi = hc<SupportAdminApiType>('/api/admin', { headers: { accept: 'application/json' } });
const tickets = adminApi.support.tickets;
const contactMessage = adminApi['contact-messages'][':id'];
const param = (id: string) => ({ param: { id: encodeURIComponent(id) } });

export function useAdminTickets(q: TicketListQuery) {
  const query: TicketListQuery = {};
  if (q.status) query.status = q.status;
  if (q.priority) query.priority = q.priority;
  if (q.q) query.q = q.q;
  return useQuery({
    queryKey: supportKeys.adminTickets(q),
    queryFn: async () => (await unwrap((o) => tickets.$get({ query }, o))).tickets,
    placeholderData: (previous) => previous,
  });
}

export function useAdminThread(id: string | null) {
  return useQuery({
    queryKey: supportKeys.adminThread(id ?? ''),
    queryFn: () => unwrap((o) => tickets[':id'].$get(param(id!), o)),
    enabled: !!id,
  });
}

export function useAdminReply(ticketId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (message: string) =>
      (await unwrap((o) => tickets[':id'].messages.$post({ ...param(ticketId), json: { message } }, o))).message,
    onSuccess: (message) => {
      qc.setQueryData<Thread<AdminTicketView>>(supportKeys.adminThread(ticketId), (old) => (old ? { ...old, messages: [...old.messages, message] } : old));
      void qc.invalidateQueries({ queryKey: supportKeys.admin });
    },
  });
}

export function useTicketStatus(ticketId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (status: TicketStatus) =>
      (await unwrap((o) => tickets[':id'].$patch({ ...param(ticketId), json: { status } }, o))).ticket,
    onSuccess: () => qc.invalidateQueries({ queryKey: supportKeys.admin }),
  });
}

export function useConsultations(status?: ConsultationStatus) {
  return useQuery({
    queryKey: supportKeys.consultations(status),
    queryFn: async () => (await unwrap((o) => adminApi.consultations.$get({ query: status ? { status } : {} }, o))).consultations,
    placeholderData: (previous) => previous,
  });
}

export function useConsultationStatus() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: ConsultationStatus }) => unwrap((o) => adminApi.consultations[':id'].$patch({ ...param(id), json: { status } }, o)),
    onSuccess: () => qc.invalidateQueries({ queryKey: [...supportKeys.admin, 'consultations'] }),
  });
}

export function useContactMessages() {
  return useQuery({
    queryKey: supportKeys.contact,
    queryFn: () => unwrap((o) => adminApi['contact-messages'].$get({}, o)),
  });
}

/** Opening a message on the server turns new into read; the list and counts refresh after. */
export const openContactMessage = async (id: string) => (await unwrap((o) => contactMessage.$get(param(id), o))).message;

export function useContactActions() {
  const qc = useQueryClient();
  const refresh = () => qc.invalidateQueries({ queryKey: supportKeys.contact });
  return {
    open: useMutation({ mutationFn: openContactMessage, onSettled: refresh }),
    markReplied: useMutation({
      mutationFn: (id: string) => unwrap((o) => contactMessage.replied.$post(param(id), o)),
      onSettled: refresh,
    }),
    remove: useMutation({
      mutationFn: (id: string) => unwrap((o) => contactMessage.$delete(param(id), o)),
      onSettled: refresh,
    }),
  };
}
