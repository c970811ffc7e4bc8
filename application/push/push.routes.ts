import { z } from 'zod';
import { pushSubscriptionRule, pushUnsubscribeRule } from '../../domain/push/push.rules.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { anyOf, commandMetadata, errorResponses, type HttpApp, PUBLIC, requireAuth, withPosition } from '../../infrastructure/http/http.port.ts';
import { type PushSubscriptionDeps, subscribePush, unsubscribePush } from './push-subscriptions.ts';

const tags = ['push'];
const bodyLimit = 16 * 1024;

/**
 * Push notifications (issue 16 item 4; spec §4 push prompt, §7 "a push provider registers ... with
 * subscribe, unsubscribe and status"): the key browsers subscribe with, and the signed-in person's
 * browsers. The person's preference stays `POST /api/users/onesignal` (spec §7); a browser's own
 * status is the browser's (`PushManager.getSubscription()`).
 */
export const registerPushRoutes = (app: HttpApp, deps: PushSubscriptionDeps) => {
  // On one's own account, like the push preference (1001).
  const own = { access: anyOf([{ profile: 1001 }]), readModels: ['push'] } as const;

  app.get(
    '/api/push/public-key',
    {
      config: { access: PUBLIC },
      schema: {
        tags,
        summary: 'The VAPID public key (base64url) a browser subscribes with; public by design (RFC 8292)',
        response: { 200: z.object({ provider: z.literal('web-push'), publicKey: z.string() }), ...errorResponses },
      },
    },
    async () => ({ provider: deps.push.provider, publicKey: deps.push.publicKey }),
  );

  app.post(
    '/api/users/me/push-subscriptions',
    {
      config: own,
      bodyLimit,
      schema: {
        tags,
        summary: 'Keep this browser’s push subscription (PushSubscription.toJSON()) for the signed-in person (1001); the same again changes nothing',
        body: pushSubscriptionRule,
        response: { 200: z.object({ subscribed: z.boolean() }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      // An admin acting for someone ("log in as") must not receive that person's notifications.
      if (auth.realUserId !== null) throw new DomainError('403', 'Med prijavo kot drug uporabnik potisnih obvestil ni mogoče vklopiti.', { status: 403 });
      const userAgent = request.headers['user-agent'] ? String(request.headers['user-agent']) : null;
      const result = await subscribePush(deps, auth.userId, request.body, userAgent, commandMetadata(request));
      return withPosition(reply, result.position).send({ subscribed: result.subscribed });
    },
  );

  app.delete(
    '/api/users/me/push-subscriptions',
    {
      config: own,
      bodyLimit,
      schema: {
        tags,
        summary: 'Forget a browser’s push subscription of the signed-in person, by its endpoint (1001)',
        body: pushUnsubscribeRule,
        response: { 200: z.object({ removed: z.boolean() }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const result = await unsubscribePush(deps, requireAuth(request).userId, request.body.endpoint, commandMetadata(request));
      return withPosition(reply, result.position).send({ removed: result.removed });
    },
  );
};
