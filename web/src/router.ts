/**
 * The web app's pages. The contract's deep links: `/` (sign-in when signed out, projects when signed
 * in), `/settings/api-keys`, `/projects/{id}`; and the links tolk gives out: an invitation's
 * `/invitations/accept?project=…#token=…` and the mailed `/verify-email#token=…`. A project's history
 * has `/projects/{id}/activity` and `/projects/{id}/trash`. Pages that need a session send a
 * signed-out visitor to `/` with the page to come back to.
 */
import { createRouter, createWebHistory, type RouteRecordRaw } from 'vue-router';
import { session } from './session';

const routes: RouteRecordRaw[] = [
  { path: '/', name: 'home', component: () => import('./views/HomePage.vue') },
  { path: '/sign-up', name: 'sign-up', component: () => import('./views/SignUpPage.vue') },
  { path: '/settings', redirect: '/settings/profile' },
  { path: '/settings/profile', name: 'settings-profile', component: () => import('./views/ProfileSettingsPage.vue'), meta: { requiresSession: true } },
  { path: '/settings/password', name: 'settings-password', component: () => import('./views/PasswordSettingsPage.vue'), meta: { requiresSession: true } },
  { path: '/settings/api-keys', name: 'settings-api-keys', component: () => import('./views/ApiKeysPage.vue'), meta: { requiresSession: true } },
  { path: '/projects/:id/settings', name: 'project-settings', component: () => import('./views/ProjectSettingsPage.vue'), meta: { requiresSession: true } },
  { path: '/projects/:id/activity', name: 'project-activity', component: () => import('./views/ActivityPage.vue'), meta: { requiresSession: true } },
  { path: '/projects/:id/trash', name: 'project-trash', component: () => import('./views/TrashPage.vue'), meta: { requiresSession: true } },
  { path: '/invitations/accept', name: 'accept-invitation', component: () => import('./views/AcceptInvitationPage.vue'), meta: { requiresSession: true } },
  { path: '/verify-email', name: 'verify-email', component: () => import('./views/VerifyEmailPage.vue') },
  { path: '/projects/:id', name: 'editor', component: () => import('./views/EditorPage.vue'), meta: { requiresSession: true } },
  { path: '/:unknown(.*)*', name: 'not-found', component: () => import('./views/NotFoundPage.vue') },
];

export const router = createRouter({ history: createWebHistory(), routes });

router.beforeEach((to) => {
  if (to.meta.requiresSession && !session.user) return { path: '/', query: { next: to.fullPath } };
  return true;
});
