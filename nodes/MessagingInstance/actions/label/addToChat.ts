import { labelChange } from './handle';

export const addLabelToChat = labelChange('add');
