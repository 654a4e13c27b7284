import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AdminTicketView,
  ConsultationStatus,
  ConsultationView,
  ContactCounts,
  ContactMessageView,
  CreateTicketInput,
  TicketListQuery,
  TicketMessageView,
  TicketStatus,
  TicketView,
} from '../../../core/contracts/support';
import { api, unwrap } from '../../lib/api';
import { request } from './http';

export { SupportApiError, sendConsultation, sendContactMessage } from './http';

export interface Thread<T extends TicketView = TicketView> {
  ticket: T;
  messages: TicketMessageView[];
}

/** Query keys, one factory per resource. */
export const supportKeys = {
  own: ['support', 'own'] as const,
  ownTickets: () => [...supportKeys.own, 'tickets'] as const,
  ownThread: (id: string) => [...supportKeys.own, 'thread', id] as const,
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

export function useAdminTickets(q: TicketListQuery) {
  const params = new URLSearchParams();
  if (q.status) params.set('status', q.status);
  if (q.priority) params.set('priority', q.priority);
  if (q.q) params.set('q', q.q);
  return useQuery({
    queryKey: supportKeys.adminTickets(q),
    queryFn: async () => (await request<{ tickets: AdminTicketView[] }>('GET', `/api/admin/support/tickets?${params}`)).tickets,
    placeholderData: (previous) => previous,
  });
}

export function useAdminThread(id: string | null) {
  return useQuery({
    queryKey: supportKeys.adminThread(id ?? ''),
    queryFn: () => request<Thread<AdminTicketView>>('GET', `/api/admin/support/tickets/${encodeURIComponent(id!)}`),
    enabled: !!id,
  });
}

export function useAdminReply(ticketId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (message: string) =>
      (await request<{ message: TicketMessageView }>('POST', `/api/admin/support/tickets/${encodeURIComponent(ticketId)}/messages`, { message })).message,
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
      (await request<{ ticket: AdminTicketView }>('PATCH', `/api/admin/support/tickets/${encodeURIComponent(ticketId)}`, { status })).ticket,
    onSuccess: () => qc.invalidateQueries({ queryKey: supportKeys.admin }),
  });
}

export function useConsultations(status?: ConsultationStatus) {
  return useQuery({
    queryKey: supportKeys.consultations(status),
    queryFn: async () =>
      (await request<{ consultations: ConsultationView[] }>('GET', `/api/admin/consultations${status ? `?status=${status}` : ''}`)).consultations,
    placeholderData: (previous) => previous,
  });
}

export function useConsultationStatus() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: ConsultationStatus }) =>
      request<{ consultation: ConsultationView }>('PATCH', `/api/admin/consultations/${encodeURIComponent(id)}`, { status }),
    onSuccess: () => qc.invalidateQueries({ queryKey: [...supportKeys.admin, 'consultations'] }),
  });
}

export function useContactMessages() {
  return useQuery({
    queryKey: supportKeys.contact,
    queryFn: () => request<{ messages: ContactMessageView[]; counts: ContactCounts }>('GET', '/api/admin/contact-messages'),
  });
}

/** Opening a message on the server turns new into read; the list and counts refresh after. */
export const openContactMessage = (id: string) =>
  request<{ message: ContactMessageView }>('GET', `/api/admin/contact-messages/${encodeURIComponent(id)}`).then((r) => r.message);

export function useContactActions() {
  const qc = useQueryClient();
  const refresh = () => qc.invalidateQueries({ queryKey: supportKeys.contact });
  return {
    open: useMutation({ mutationFn: openContactMessage, onSettled: refresh }),
    markReplied: useMutation({
      mutationFn: (id: string) =>
        request<{ message: ContactMessageView; changed: boolean }>('POST', `/api/admin/contact-messages/${encodeURIComponent(id)}/replied`, {}),
      onSettled: refresh,
    }),
    remove: useMutation({
      mutationFn: (id: string) => request<{ ok: true }>('DELETE', `/api/admin/contact-messages/${encodeURIComponent(id)}`),
      onSettled: refresh,
    }),
  };
}
