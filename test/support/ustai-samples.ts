/**
 * Real user stories with human QUS labels, from the UStAI dataset ("Leveraging LLMs for
 * User Stories in AI Systems: UStAI Dataset", `UStAI-annotated.csv`, column `atomic`): a
 * story labelled `conjunctions` joins several features, one labelled `atomic` holds one.
 * Quoted as published (a trailing line break dropped). Many atomic stories join two
 * benefits with "and" in their "so that" part; the conjunction stories join two features
 * in their "I want" part.
 */
import type { MinerSample } from '../../lambdas/core/patterns/miner/log-odds.js';

/** Labelled `conjunctions`, each with "and" in the "I want" part. */
export const CONJUNCTION_STORIES: readonly string[] = [
  'As a cybersecurity expert, I want AI tools that can detect and respond to cyberattacks in real-time, protecting critical infrastructure and national security information.',
  'As a city planner, I want a traffic management system that uses AI and connected vehicles to optimize traffic flow and reduce congestion.',
  'As a driver, I want a car that uses AI and real-time data to react faster than humans in emergency situations, reducing my risk of accidents.',
  'As a car manufacturer, I want to develop AVs with advanced sensors and AI algorithms that can accurately perceive their surroundings and make safe driving decisions.',
  'As an environmentalist, I want AVs that are programmed for fuel efficiency and can reduce overall emissions and pollution in our cities.',
  'As a safety expert, I want to utilize AI and IoT to reduce the risk of accidents and improve vehicle safety, so that I can minimize the likelihood of human error and ensure a safer driving experience.',
  'As a driver, I want the AV to predict and prevent collisions using AI, so that accidents are significantly reduced.',
  'As an intelligence analyst, I want AI to help me analyze vast amounts of data and identify potential threats and emerging conflicts before they escalate.',
  'As a peacekeeper deployed to a conflict zone, I want AI-powered systems that can translate languages in real-time and help me build trust with local communities.',
  'As a cybersecurity analyst, I want the system to detect and report coordinated aggressive campaigns, so I can mitigate large-scale harassment or abuse efforts effectively.',
];

/** Labelled `atomic`: "and" only in the "so that" part, or (the first) between two nouns. */
export const ATOMIC_STORIES_WITH_AND: readonly string[] = [
  'As a cybersecurity expert, I want AVs to be equipped with robust security measures to protect them from hacking and cyberattacks.',
  'As a school administrator, I want a system that helps identify students at risk of aggressive behavior so that I can implement targeted interventions and create a safer learning environment.',
  'As a parent, I want to know if my child is experiencing aggressive episodes, so that I can provide support and guidance to help them manage their emotions and behaviors.',
  'As a researcher, I want to develop an objective method to track physical-aggressive incidents in children, so that I can identify early warning signs and provide timely interventions.',
  'As a social media platform administrator, I want to detect aggressive behavior on Twitter in real-time, so that I can prevent online harassment and maintain a safe online environment.',
  'As a mental health professional, I want to identify individuals who exhibit aggressive behavior online so that I can offer them support and resources.',
  "As a guardian, I want to view trends of my child's aggression incidents over time, so I can understand and support their behavioral development.",
];

/** Labelled `atomic`, without any "and". */
export const ATOMIC_STORIES_WITHOUT_AND: readonly string[] = [
  "As an endocrinologist, I want access to my patients' predicted blood glucose trends, so I can adjust their treatment plans proactively.",
  'As a fleet manager, I want to monitor AV performance data via IoT, so that I can proactively manage maintenance.',
  'As a transportation executive, I want the AV to optimize fuel consumption with AI, so that operational costs are minimized.',
  'As a passenger, I want the AV to detect hazards in real-time using AI sensors, so that my safety is ensured.',
  'As a commuter, I want the AV to handle driving tasks autonomously, so that I can use my travel time productively.',
  'As an environmental advocate, I want the AV to reduce emissions through AI-optimized routes, so that it contributes to a cleaner environment.',
  'As a network administrator, I want the AV to maintain low-latency connectivity through IoT, so that it can communicate effectively for safe operations.',
  'As a parent, I want to receive real-time alerts when my child shows aggressive behavior, so I can intervene immediately.',
  "As a clinician, I want access to detailed logs of a child's aggressive incidents, so I can create personalized intervention plans.",
  'As a school administrator, I want to monitor overall aggression data across the school, so I can develop policies to enhance safety.',
];

/**
 * Miner samples: each story with the judge score given, ids `<prefix>_<index>`.
 *
 * @example
 * scored('low', CONJUNCTION_STORIES, 1.5)[0]; // { artefactId: 'low_0', judgeScore: 1.5, text: 'As a cybersecurity expert, ...' }
 */
export function scored(
  prefix: string,
  stories: readonly string[],
  judgeScore: number,
): MinerSample[] {
  return stories.map((text, i) => ({ artefactId: `${prefix}_${i}`, text, judgeScore }));
}
