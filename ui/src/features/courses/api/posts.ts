import { api } from '../../../lib/api-client.ts';

export type PostItem = {
  id: number;
  courseId: number;
  parentId: number | null;
  message: string;
  anonymous: boolean;
  /** null for anonymous posts of others and for deleted posts. */
  author: { id: number; name: string } | null;
  mine: boolean;
  edited: boolean;
  deleted: boolean;
  /** A reply written as the course team. */
  team: boolean;
  /** Hidden from participants; only moderators get hidden posts. */
  hidden: boolean;
  /** A question the course team marked answered. */
  answered: boolean;
  createdAt: string;
  updatedAt: string;
};
export type PostThread = PostItem & { replies: PostItem[] };

/** spec §7 GET /post?courseId= answering {items}. */
export const listPosts = (courseId: number) => api<{ items: PostThread[] }>('GET', '/post', { query: { courseId } });
export const createPost = (input: { courseId: number; message: string; anonymous: boolean; parentId: number | null }) =>
  api<{ id: number }>('POST', '/post', { body: input });
export const editPost = (id: number, message: string) => api<{ id: number }>('PUT', `/post/${id}`, { body: { message } });
export const deletePost = (id: number) => api<{ id: number }>('DELETE', `/post/${id}`);

/** The course team (issue 15): a signed reply marked as the team's answer; hide or show a post; mark a question answered or not. */
export const replyAsTeam = (postId: number, message: string) => api<{ id: number }>('POST', `/post/${postId}/team-replies`, { body: { message } });
export const setPostHidden = (id: number, hidden: boolean) => api<{ id: number }>('PUT', `/post/${id}/hidden`, { body: { hidden } });
export const setPostAnswered = (id: number, answered: boolean) => api<{ id: number }>('PUT', `/post/${id}/answered`, { body: { answered } });
