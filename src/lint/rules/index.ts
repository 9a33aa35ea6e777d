// The lint's rules, in the order their findings are explained. Each rule lives in its own file.
import type { Rule } from '../rule.js';
import { annotationUnderJson } from './annotation-under-json.js';
import { arrayWithoutList } from './array-without-list.js';
import { classMismatch } from './class-mismatch.js';
import { classTypedNode } from './class-typed-node.js';
import { contextDependentTerm } from './context-dependent-term.js';
import { datatypeMismatch } from './datatype-mismatch.js';
import { idOnLiteral } from './id-on-literal.js';
import { iriShapeConflict } from './iri-shape-conflict.js';
import { iriSharedByKeys } from './iri-shared-by-keys.js';
import { listOnNonArray } from './list-on-non-array.js';
import { objectTypedAsDatatype } from './object-typed-as-datatype.js';
import { unannotatedMember } from './unannotated-member.js';
import { undeclaredPrefix } from './undeclared-prefix.js';
import { unionTypedLiteral } from './union-typed-literal.js';
import { unusableExtraTerm } from './unusable-extra-term.js';

export const rules: readonly Rule[] = [
  datatypeMismatch,
  idOnLiteral,
  objectTypedAsDatatype,
  classMismatch,
  listOnNonArray,
  iriShapeConflict,
  undeclaredPrefix,
  unusableExtraTerm,
  contextDependentTerm,
  annotationUnderJson,
  classTypedNode,
  unionTypedLiteral,
  arrayWithoutList,
  unannotatedMember,
  iriSharedByKeys,
];
