import {
  payoutAddressRequestSchema,
  payoutThresholdRequestSchema,
  rigTokenRequestSchema,
  settingsSchema,
  settingsUpdateSchema,
} from '@manjam/contract';
import { defineRoute } from '../route.js';
import type { RouteModule } from './module.js';

export const settingsRoutes: RouteModule = ({ services }) => [
  defineRoute({
    method: 'GET',
    url: '/api/settings',
    tag: 'settings',
    auth: 'user',
    summary: 'Every setting of the Settings page',
    response: settingsSchema,
    handler: ({ auth }) => services.settings.get(auth.user),
  }),
  defineRoute({
    method: 'PUT',
    url: '/api/settings',
    tag: 'settings',
    auth: 'user',
    summary: 'Change any subset of the settings',
    body: settingsUpdateSchema,
    response: settingsSchema,
    handler: ({ auth, body }) => services.settings.update(auth.user, body),
  }),
  defineRoute({
    method: 'PUT',
    url: '/api/settings/payout-address',
    tag: 'settings',
    auth: 'user',
    rateLimit: 'auth',
    summary:
      "Set one coin's payout address (a change takes effect after the hold; needs the password, and the TOTP code when 2FA is on)",
    body: payoutAddressRequestSchema,
    response: settingsSchema,
    handler: ({ auth, body }) =>
      services.settings.setPayoutAddress(auth.user, body.address, body.coin, body.password, body.totp),
  }),
  defineRoute({
    method: 'PUT',
    url: '/api/settings/payout-threshold',
    tag: 'settings',
    auth: 'user',
    summary: "Set one coin's payout threshold in its base units (within the range GET /api/settings shows)",
    body: payoutThresholdRequestSchema,
    response: settingsSchema,
    handler: ({ auth, body }) =>
      services.settings.setPayoutThreshold(auth.user, body.coin, BigInt(body.threshold)),
  }),
  defineRoute({
    method: 'PUT',
    url: '/api/settings/rig-token',
    tag: 'settings',
    auth: 'user',
    summary: 'Save (encrypted) or remove the rig-management API token',
    body: rigTokenRequestSchema,
    response: settingsSchema,
    handler: ({ auth, body }) => services.settings.setRigToken(auth.user, body.token),
  }),
];
