export {
  ServiceError as ApiError,
  errorPayload,
  zodFields,
  validationError,
  notFound,
  unauthorized,
  type ErrorPayload,
} from '../services/errors.js';
