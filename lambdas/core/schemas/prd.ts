import { z } from 'zod';
import { branchNameProblem } from './branch-name.js';

/**
 * One story of Ralph's `prd.json`. Unknown fields are kept (`looseObject`) so that a file
 * written back by us still holds everything its author put in it.
 */
export const UserStorySchema = z.looseObject({
  id: z.string().min(1),
  title: z.string().min(1),
  description: z.string(),
  acceptanceCriteria: z.array(z.string()),
  priority: z.number().int(),
  passes: z.boolean(),
  notes: z.string().optional(),
});
export type UserStory = z.infer<typeof UserStorySchema>;

/** Ralph's `prd.json`, exactly as Ralph writes it (snarktank/ralph's `prd.json.example`). */
export const PrdSchema = z
  .looseObject({
    project: z.string().min(1),
    branchName: z
      .string()
      .min(1)
      .superRefine((name, ctx) => {
        const problem = branchNameProblem(name);
        if (problem)
          ctx.addIssue({ code: 'custom', message: `not a git branch name: "${name}" ${problem}` });
      }),
    description: z.string(),
    userStories: z.array(UserStorySchema).min(1),
  })
  .superRefine((prd, ctx) => {
    const seen = new Map<string, number>();
    prd.userStories.forEach((story, index) => {
      const first = seen.get(story.id);
      if (first !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['userStories', index, 'id'],
          message: `duplicate story id "${story.id}" (first at userStories[${first}])`,
        });
      } else seen.set(story.id, index);
    });
  });
export type Prd = z.infer<typeof PrdSchema>;
