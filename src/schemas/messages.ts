// The validation messages, worded as the Django REST framework original words them.
export const REQUIRED = 'This field is required.';
export const NOT_NULL = 'This field may not be null.';
export const NOT_BLANK = 'This field may not be blank.';
export const NOT_A_STRING = 'Not a valid string.';
export const NOT_A_BOOLEAN = 'Must be a valid boolean.';
export const NO_NULL_CHARACTERS = 'Null characters are not allowed.';
export const tooLong = (max: number) => `Ensure this field has no more than ${max} characters.`;
export const notAChoice = (value: unknown) =>
  `"${typeof value === 'string' ? value : JSON.stringify(value)}" is not a valid choice.`;
