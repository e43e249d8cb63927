import {
  accountHelpSchema,
  changeEmailRequestSchema,
  changeEmailResponseSchema,
  changePasswordRequestSchema,
  confirmEmailRequestSchema,
  loginRequestSchema,
  loginResponseSchema,
  passwordResetConfirmSchema,
  passwordResetRequestSchema,
  recoveryCodesSchema,
  registerRequestSchema,
  registerResponseSchema,
  totpCodeRequestSchema,
  totpSetupResponseSchema,
  userSchema,
} from '@manjam/contract';
import { readDeviceCookie, setDeviceCookie } from '../device-cookie.js';
import { defineRoute } from '../route.js';
import type { RouteModule } from './module.js';

export const authRoutes: RouteModule = ({ services, deps }) => [
  defineRoute({
    method: 'POST',
    url: '/api/auth/register',
    tag: 'auth',
    auth: 'public',
    rateLimit: 'auth',
    status: 202,
    summary:
      'Register: the same answer whether the email has an account or not (a confirmation link, or a notice to the owner, goes by email)',
    body: registerRequestSchema,
    response: registerResponseSchema,
    // The account keeps the language the person registered in (the web app sends it as
    // Accept-Language); otherwise signing in would switch an Arabic user to English.
    handler: ({ body, language }) =>
      services.accounts.register({ ...body, preferredCoin: body.preferredCoin, language }),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/auth/confirm-email',
    tag: 'auth',
    auth: 'public',
    rateLimit: 'auth',
    summary: 'Create the account of a registration confirmation link (once, before it expires)',
    body: confirmEmailRequestSchema,
    handler: async ({ body }) => {
      await services.accounts.confirmEmail(body.token);
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/auth/login',
    tag: 'auth',
    auth: 'public',
    rateLimit: 'auth',
    summary:
      'Sign in with email and password (and the TOTP code, or a recovery code, when 2FA is on); 429 with Retry-After while this source is throttled',
    body: loginRequestSchema,
    response: loginResponseSchema,
    handler: async ({ body, ip, userAgent }, reply) => {
      const signedIn = await services.auth.login(body.email, body.password, body.totp, {
        ip,
        userAgent,
        device: readDeviceCookie(reply.request),
      });
      setDeviceCookie(reply, signedIn.device.value, signedIn.device.maxAgeSeconds);
      return {
        token: signedIn.token,
        user: await services.accounts.view(signedIn.user),
        expiresAt: signedIn.expiresAt.toISOString(),
      };
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/auth/help',
    tag: 'auth',
    auth: 'public',
    summary:
      "Whether the pool sends email (password reset by email, email alerts) and the operator's contact (config operator.contact)",
    response: accountHelpSchema,
    handler: () =>
      Promise.resolve({
        email: deps.config.smtp !== undefined,
        contact: deps.config.operator.contact ?? null,
      }),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/auth/password-reset',
    tag: 'auth',
    auth: 'public',
    rateLimit: 'auth',
    summary:
      'Ask for a password reset link by email: the same answer (204) whether the email has an account or not; 409 email-not-configured when the pool sends no email',
    body: passwordResetRequestSchema,
    handler: async ({ body, language }) => {
      await services.passwordReset.request(body.email, language);
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/auth/password-reset/confirm',
    tag: 'auth',
    auth: 'public',
    rateLimit: 'auth',
    summary:
      'Set a new password with the token of a reset link (once, before it expires); every session of the account is signed out',
    body: passwordResetConfirmSchema,
    handler: async ({ body, language }) => {
      await services.passwordReset.confirm(body.token, body.newPassword, language);
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
    summary:
      'Turn two-factor authentication on with the password and a valid code; answers 10 single-use recovery codes (shown once)',
    body: totpCodeRequestSchema,
    response: recoveryCodesSchema,
    handler: async ({ auth, body }) => ({
      codes: await services.auth.enableTotp(auth.user, body.password, body.code),
    }),
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
    status: 202,
    summary:
      'Ask to change the sign-in email (the password, and the TOTP code when 2FA is on): a confirmation link goes to the new address; the same answer when it already has an account',
    body: changeEmailRequestSchema,
    response: changeEmailResponseSchema,
    handler: ({ auth, body, language }) =>
      services.accounts.changeEmail(auth.user, {
        password: body.password,
        newEmail: body.newEmail,
        totp: body.totp,
        language,
      }),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/auth/email/confirm',
    tag: 'auth',
    auth: 'public',
    rateLimit: 'auth',
    summary: 'Make the email change of a confirmation link (once, before it expires)',
    body: confirmEmailRequestSchema,
    handler: async ({ body, language }) => {
      await services.accounts.confirmEmailChange(body.token, language);
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
