/* counters-label-lines: the grammar of yyact in labellines.c, whose #line
   directives name these lines as byacc's do: each rule's action is the code
   of a `case', and the directives put the case's label (after the break of
   the case above) on the line after its rule.  Every line marked LABEL must
   show gcov's count of it, that of the case whose block hangs on it (holds
   no larger line), not that of the action on it.  */
%%
expr : expr '+' expr      { note (1); r = 1; }
     | expr '-' expr      { note (2); r = 2; }    /* LABEL 2 */
     | expr '*' expr      { note (3); r = 3; }    /* LABEL 3 */
     ;
%%
