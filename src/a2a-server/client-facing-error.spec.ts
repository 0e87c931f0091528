import { A2A_ERROR_CODE } from '@a2a-js/sdk/errors';
import { Logger } from '@nestjs/common';
import { clientFacingError } from './client-facing-error';

describe('clientFacingError', () => {
  const logger = new Logger('test');
  let logged: jest.SpyInstance;

  beforeEach(() => {
    logged = jest.spyOn(logger, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => logged.mockRestore());

  it('answers an internal error with a generic message and logs its cause', () => {
    const cause = new Error('connection to 10.0.0.5:5432 refused');
    const error = { code: A2A_ERROR_CODE.INTERNAL_ERROR, message: cause.message };
    expect(clientFacingError(error, logger, 'request failed', cause)).toEqual({
      code: A2A_ERROR_CODE.INTERNAL_ERROR,
      message: 'Internal error.',
    });
    expect(logged).toHaveBeenCalledWith({ err: cause }, 'request failed');
  });

  it('logs the error itself when no cause is known', () => {
    const error = { code: A2A_ERROR_CODE.INTERNAL_ERROR, message: 'relation "tasks" does not exist' };
    clientFacingError(error, logger, 'request failed');
    expect(logged).toHaveBeenCalledWith({ err: error }, 'request failed');
  });

  it('shows any other error as it is, unlogged', () => {
    const error = { code: A2A_ERROR_CODE.TASK_NOT_FOUND, message: 'Task t1 not found' };
    expect(clientFacingError(error, logger, 'request failed')).toBe(error);
    expect(logged).not.toHaveBeenCalled();
  });
});
