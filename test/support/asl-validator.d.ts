// asl-validator ships no type declarations; this is the part of its API the tests use.
declare module 'asl-validator' {
  interface ValidationError {
    'Error code': string;
    Message: string;
  }
  interface ValidationResult {
    isValid: boolean;
    errors: ValidationError[];
    errorsText(separator?: string): string;
  }
  export default function validator(
    definition: unknown,
    options?: { checkPaths?: boolean; checkArn?: boolean },
  ): ValidationResult;
}
