import { Logger } from '@aws-lambda-powertools/logger';

/** The API functions' logger (Powertools: JSON lines in CloudWatch, with the service name). */
export const apiLogger = new Logger({ serviceName: 'ralph-cloud-api' });
