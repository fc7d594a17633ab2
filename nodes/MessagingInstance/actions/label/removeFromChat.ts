import { labelChange } from './handle';

export const removeLabelFromChat = labelChange('remove');
