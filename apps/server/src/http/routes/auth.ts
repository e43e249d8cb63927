import {
  changeEmailRequestSchema,
  changePasswordRequestSchema,
  loginRequestSchema,
  loginResponseSchema,
  registerRequestSchema,
  registerResponseSchema,
  totpCodeRequestSchema,
  totpSetupResponseSchema,
  userSchema,
} from '@manjam/contract';
import { defineRoute } from '../route.js';
import type { RouteModule } from './module.js';

export const authRoutes: RouteModule = ({ services }) => [
  defineRoute({
    method: 'POST',
    url: '/api/auth/register',
    tag: 'auth',
    auth: 'public',
    rateLimit: 'auth',
    status: 201,
    summary: "Create an account (the seed's registration rules; wallet address checked for the coin)",
    body: registerRequestSchema,
    response: registerResponseSchema,
    handler: async ({ body, language }) => {
      const user = await services.accounts.register({ ...body, preferredCoin: body.preferredCoin });
      // The account keeps the language the person registered in (the web app sends it as
      // Accept-Language); otherwise signing in would switch an Arabic user to English.
      if (language !== 'en') await services.settings.update(user, { language });
      return { user: await services.accounts.view(user) };
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/auth/login',
    tag: 'auth',
    auth: 'public',
    rateLimit: 'auth',
    summary: 'Sign in with email and password (and the TOTP code when 2FA is on)',
    body: loginRequestSchema,
    response: loginResponseSchema,
    handler: async ({ body, ip, userAgent }) => {
      const { token, user, expiresAt } = await services.auth.login(body.email, body.password, body.totp, {
        ip,
        userAgent,
      });
      return { token, user: await services.accounts.view(user), expiresAt: expiresAt.toISOString() };
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/auth/logout',
    tag: 'auth',
    auth: 'user',
    summary: 'Revoke the current session',
    handler: async ({ token }) => {
      await services.auth.logout(token);
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/auth/2fa/setup',
    tag: 'auth',
    auth: 'user',
    rateLimit: 'auth',
    summary: 'Start two-factor enrolment: a new secret, its otpauth URL and a QR code',
    response: totpSetupResponseSchema,
    handler: ({ auth }) => services.auth.setupTotp(auth.user),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/auth/2fa/enable',
    tag: 'auth',
    auth: 'user',
    rateLimit: 'auth',
    summary: 'Turn two-factor authentication on with the password and a valid code',
    body: totpCodeRequestSchema,
    handler: async ({ auth, body }) => {
      await services.auth.enableTotp(auth.user, body.password, body.code);
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/auth/2fa/disable',
    tag: 'auth',
    auth: 'user',
    rateLimit: 'auth',
    summary: 'Turn two-factor authentication off with the password and a valid code',
    body: totpCodeRequestSchema,
    handler: async ({ auth, body }) => {
      await services.auth.disableTotp(auth.user, body.password, body.code);
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/auth/password',
    tag: 'auth',
    auth: 'user',
    rateLimit: 'auth',
    summary: 'Change the password (other sessions are signed out; the TOTP code when 2FA is on)',
    body: changePasswordRequestSchema,
    handler: async ({ auth, body }) => {
      await services.auth.changePassword(auth, body.currentPassword, body.newPassword, body.totp);
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/auth/email',
    tag: 'auth',
    auth: 'user',
    rateLimit: 'auth',
    summary: 'Change the sign-in email (needs the password, and the TOTP code when 2FA is on)',
    body: changeEmailRequestSchema,
    handler: async ({ auth, body }) => {
      await services.auth.changeEmail(auth.user, body.password, body.newEmail, body.totp);
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/me',
    tag: 'account',
    auth: 'user',
    summary: 'The signed-in user',
    response: userSchema,
    handler: ({ auth }) => services.accounts.view(auth.user),
  }),
];
