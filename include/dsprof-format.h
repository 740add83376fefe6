/* dsprof-format.h - the one description of dsprof's data, shared by the GCC plugin
   (C++), the runtime and the report tool (C11).

   1. The compiler-runtime ABI
   ---------------------------
   For every instrumented translation unit the plugin emits

     static uint64_t __dsprof_counters[N] __attribute__((aligned(4096)));
         N is a multiple of DSPROF_COUNTERS_PER_PAGE, so the array owns whole pages
         and the runtime can map the profile file over it (MAP_FIXED): the inline
         `counters[i]++` stays one RIP-relative add while the counts live in the file.
     static const char __dsprof_meta[M] = "...";
         the unit's metadata blob (section 3), copied verbatim into the profile.
     static uint32_t __dsprof_sites[S];
         one word per event site of the unit, set by the runtime at registration
         to the site's global id (> 0); the hooks pass &__dsprof_sites[k]:
           void __dsprof_enter_v2 (uint32_t *site, const uint64_t *vals, void *cfa);
           void __dsprof_exit_v1 (uint32_t *site, uint64_t result, void *cfa);
         VALS holds one word per parameter dimension of the site (section 3):
         integers, enums and _Bool converted to 64 bits, floating point as the
         bits of a double, pointers as addresses; then one word per STR
         dimension, in order: the most bytes of that string to read (all ones:
         up to its NUL; docs/contract.md §4.2).  RESULT as the first
         words (0 for void).
         CFA is the instrumented function's __builtin_dwarf_cfa (): the same at
         its Start and Finish, and lower for every frame called from it.
     the runtime defines  int __dsprof_events_on;
         nonzero until the runtime has read DSPROF_EVENTS, then whether events
         are recorded, which `dsprof ctl` switches while the program runs (the
         first word of a page of its own: section 2a).  An event function loads it once at entry into a local,
         calls __dsprof_enter_v2 only if it is nonzero, and __dsprof_exit_v1 at
         each return only if that local is: with events off a call costs a load
         and a branch, and a Start always has its Finish.  The hooks check for
         themselves too, so objects that call them unguarded stay correct.
     the dispatch of a bytecode VM's function FUNC (plugin argument
     dispatch=FUNC) calls, guarded by the same local:
           void __dsprof_op_v1 (uint32_t *dispatch, uint32_t index, void *cfa);
             on every entry into the block of the INDEX-th target of FUNC's
             dispatch (a case label's or an address-taken label's block):
             the op record of this frame, if one is open and innermost,
             ends and the next one starts, at one clock read.  DISPATCH is
             &__dsprof_sites[k0]: the dispatch's targets are the sites k0,
             k0 + 1, ... (section 3, DSPROF_TAG_DISPATCH).
           void __dsprof_op_begin_v1 (void *cfa);
             at FUNC's entry: records a longjmp left open at or below CFA
             (an earlier call of FUNC in the same place) are closed first.
           void __dsprof_op_end_v1 (void *cfa);
             before each of FUNC's returns: its open op record ends.
         CFA is FUNC's __builtin_dwarf_cfa () - 1: just below FUNC's own
         event, if FUNC is one, and above every frame FUNC calls, so the
         records an opcode's calls make nest inside the op record.
     a selection file's dims= items NAME=EXPR (docs/select.md) call, in the
     block of the hook they follow (after __dsprof_enter_v2 or
     __dsprof_op_v1, before __dsprof_exit_v1 for those reading `result'):
           void __dsprof_dims_v1 (const unsigned char *prog,
                                  const uint64_t *roots, void *cfa,
                                  uint32_t *ids);
         PROG, a constant of the unit, describes the dimensions and the
         offsets and loads that compute them (runtime/dimread.c); ROOTS the
         words of the variables they start from, converted as VALS; CFA the
         hook's; IDS a zeroed static array of the unit, one word per
         dimension, where the runtime caches the ids of their names.  Each
         becomes a DIM of the record at CFA (section 4), if it is the
         innermost open one.
     the runtime defines  __thread int __dsprof_seen_v1  (initial-exec TLS)
         and  void __dsprof_seen_thread_v1 (void), which preserves every
         register; with update=single, a function with counters and calls
         tests a thread-local flag at entry (an executable's unit: a static
         local-exec int of its own; a shared object's: __dsprof_seen_v1) and,
         if it is 0, calls __dsprof_seen_thread_v1 below the red zone and sets
         it: the runtime counts the thread once into the header's
         single_threads (lost updates are possible only when that is more
         than 1).
     a constructor  __dsprof_register_unit_v1 (__dsprof_counters, N, __dsprof_meta,
                                               M, __dsprof_sites, S);
     a destructor   __dsprof_unregister_unit_v1 (__dsprof_counters, __dsprof_sites);
     Either array is a null pointer (and N or S 0) when the unit has none.

   The version suffix of each entry point changes whenever its ABI changes (the
   strings' bounds made __dsprof_enter_v2), so a plugin/runtime mismatch fails
   at link time.

   2. The profile file
   -------------------
   Host byte order (little-endian x86-64 and friends).  The file is a sequence of
   DSPROF_PAGE-aligned pieces:

     [0, 4096)           struct dsprof_file_header (mapped and updated by the writer)
     [4096, header.end)  chunks, each starting on a page boundary, each a whole number
                         of pages; a chunk is {struct dsprof_chunk, payload, padding}.

   The file is made unnamed (O_TMPFILE) in the profile's directory and given
   its name once its header is whole; where the file system cannot make it
   unnamed, under the temporary name <name>.tmp<pid>-<k>, renamed once whole
   (a process killed meanwhile leaves it: readers given such a file that
   holds no profile yet, empty or without the magic, skip it).

   The writer allocates a chunk's space, fills it, and only then publishes it by
   storing the new `end` in the header, so a reader never sees a half-written chunk
   header.  Counter pages of a published unit chunk keep changing while the program
   runs (they are the program's counters); a reader may read them at any time.

   Chunk kinds:
     DSPROF_CHUNK_UNIT   struct dsprof_unit_chunk, then meta_size bytes of metadata,
                         padding to a page, then ncounters uint64_t counters at file
                         offset counters_offset (page aligned, inside the chunk).
     DSPROF_CHUNK_UNITS  many units in one chunk (a forked child's, written at
                         once): struct dsprof_units_chunk, then `nunits` unit
                         records packed one after the other in `records_size`
                         bytes, then padding to a page, then the units' counters.
                         A record is a struct dsprof_unit_chunk whose chunk.kind
                         is DSPROF_CHUNK_UNIT and whose chunk.size is the record's
                         own size (a multiple of 8: the struct, its meta_size
                         bytes of metadata, padding), then the metadata; its
                         counters_offset is page aligned, past the records and
                         inside the chunk.  A unit costs its metadata, not a page.
     DSPROF_CHUNK_CONTROL the switch of event recording (section 2a): two pages,
                         struct dsprof_control_chunk on the first, the control
                         page the second.  At most one, written with the header.
     DSPROF_CHUNK_TUNIT  a unit counted with update=thread, DSPROF_CHUNK_SHARD
                         a thread's counters (section 2b).

   2b. Per-thread counter shards (update=thread)
   ----------------------------------------------
   A unit compiled with -fplugin-arg-dsprof-update=thread keeps its counts
   not in its __dsprof_counters array but in shards, one per thread:

     the runtime defines  __thread uint64_t *__dsprof_shard_v1  (initial-exec
         TLS), the calling thread's shard (NULL until it has one), and
         uint64_t *__dsprof_shard_thread_v1 (void), which gives the thread a
         shard (a free one, or a new one) and returns it;
     the constructor is  __dsprof_register_unit_thread_v1, with the arguments
         of __dsprof_register_unit_v1 (the pass that moves the counters makes
         the call so: with -flto, at link time; a -flto link without the
         plugin leaves the unit counting in its array, registered with
         __dsprof_register_unit_v1): the runtime gives the unit the index
         of its counter 0 in the process's counter space (DSPROF_SHARD_SINK,
         then past the units before it) and stores it in __dsprof_counters[0],
         the only word of the array it touches;
     every function with counters (after the GIMPLE optimisers) reaches its
         counters through a pointer into the thread's shard, and increments
         counter i at that pointer + i: each thread increments its own copy,
         and no update is ever lost.  In a shared object (and with -flto,
         and on targets other than x86-64), the function loads __dsprof_shard_v1 at entry,
         calls __dsprof_shard_thread_v1 if it is NULL and adds
         __dsprof_counters[0].  In an executable on x86-64 the unit has a
         thread-local cache of its own, `static __thread uint64_t
         *cache' (local-exec), holding the thread's base + the unit's
         index: a function a thread may enter first (one that is not local
         to the unit, or that a function without counters calls) tests it
         at entry and calls
           uint64_t *__dsprof_shard_unit_v1 (uint64_t *counters,
                                             uint64_t **cache),
         which stores the place in *CACHE (never NULL afterwards) and
         returns it; a function that only functions with counters of the
         unit call loads it where it counts.  The runtime clears a thread's
         caches when it ends (it knows their offsets from the thread
         pointer, the same in every thread), and the registering thread's
         ones that code run before the unit registered set to its sink.
         Before any unit has registered, neither call makes a shard: the
         thread counts into a sink outside the profile.
         On x86-64 the two calls save every register they use, vector ones
         too (XSAVE or FXSAVE), and take their arguments pushed on the
         stack below the red zone, the first last: the call is an asm
         statement that leaves the caller's registers as they are.
     the units of an executable on x86-64 compiled without -flto register
         with __dsprof_register_unit_thread_v2 (same arguments): their
         __dsprof_counters array is a page longer than NCOUNTERS, and its
         counters from the second page on are the unit's sink.  Their cache
         is two pointers: `static __thread uint64_t *cache' (NULL at a
         thread's start), which the functions a thread may enter first
         test, and `static __thread uint64_t *load = sink' (at the sink at
         a thread's start), which the others load without a test; the call
           uint64_t *__dsprof_shard_unit_v2 (uint64_t *counters,
                                             uint64_t **cache,
                                             uint64_t **load)
         (three arguments pushed) sets both, and the runtime sets them back
         to NULL and the sink when the thread ends.  Code whose frames run on
         in a thread that never set them (a coroutine's stack resumed by
         another thread) counts in the sink, never through NULL; so does
         code run before the unit registered.  At registration the sink
         becomes a DSPROF_CHUNK_SHARD segment of the profile (first the
         unit's index, NCOUNTERS counters), with the counts it held.

   The file holds a DSPROF_CHUNK_TUNIT chunk per such unit (struct
   dsprof_unit_chunk, its counters_offset that index, no counter pages) and
   DSPROF_CHUNK_SHARD chunks, the segments of the threads' shards: a page of
   struct dsprof_shard_chunk, then its ncounters counters, counters first ..
   first + ncounters - 1 of a shard, a hole but for the pages a thread
   counted in (a sparse file: the untouched pages cost neither memory nor
   disk).  A thread's shard is DSPROF_SHARD_COUNTERS counters of address
   space, reserved at once: the sink below DSPROF_SHARD_SINK is anonymous
   memory, and one segment maps the counter space the units had taken when
   the shard was made (rounded up to whole pages); when a unit registers
   past it (a library loaded with dlopen), every shard maps a segment more
   before the unit gets its index.  A unit's counter i is the sum of counter
   index + i over the segments of its process that hold it.  (Files written
   before segments have one chunk per shard, first 0 and
   DSPROF_SHARD_COUNTERS counters.)  A thread's shard returns to a free list
   when the thread ends and the next new thread takes it (the sums are the
   same); a forked child gets its own file, its thread a new zero shard at
   the same address (counts from the fork), the parent's other shards
   unmapped, the units' sinks a new zero segment each.  Under a finite
   RLIMIT_AS a shard reserves the counter space the units have taken and
   DSPROF_SHARD_SINK / 8 counters more, not all of it: a unit that
   registers past that takes the address space right past the shard, or
   is recorded without counts (a warning).  A thread that cannot have a
   shard of its own counts in another thread's: the header's
   single_threads counts the threads that share it, so that readers say
   increments may have been lost.  Code that runs before its unit
   registered (index 0) counts into the unit's sink if it has one (then in
   the profile), else into the shard's sink, and those counts are not in
   the profile (a unit of more
   counters than the sink would spill into the first units' places: the
   constructor runs first, at a reserved priority, so only code that other
   units' constructors call before it can).  A unit that does not fit in
   the space left, or whose segments cannot be mapped, is recorded without
   counts (a warning; the profile says it is truncated).  A segment the
   file cannot take is anonymous memory (the profile says it is truncated).
   Older readers refuse the unknown chunk kinds.

   2a. The control page (`dsprof ctl PROFILE events on|off`)
   --------------------------------------------------------
   The runtime's int __dsprof_events_on (section 1) is the first word of a
   page-aligned page of the runtime's data that holds nothing else (the symbol
   is the whole page, so an executable's copy of it is a page too).  When it
   creates the profile the runtime writes a DSPROF_CHUNK_CONTROL chunk right
   after the header, its second page holding the flag's value at offset 0,
   and maps that page of the file (MAP_SHARED, MAP_FIXED) over its own: a
   process that writes the file's word changes what every event function
   reads at its next entry, with nothing added to the hot path.  A forked
   child writes a control chunk of its own and maps it over the page.  If the
   flag's page is not page-aligned in the process (copy relocations of an
   unusual linker), the runtime does not map it and leaves `mapped` 0.

   `dsprof ctl` records each switch in the chunk's first page, under an
   exclusive flock of the file: it fills switches[nswitches] and then
   increments nswitches, and stores the flag around it, so that the interval
   the log gives is one in which no event function starts a record.  Off:
   store 0, wait a millisecond (for calls that read the flag before), then
   log the time; on: log the time, then store 1.  Times are CLOCK_MONOTONIC
   ns, as the header's start_mono_ns (the machine's clock, shared by ctl and
   the program).  A Start already made keeps its Finish.  The off intervals
   are those from an `off` switch (or the start, when events_at_start is 0)
   to the next `on` switch (or the end of the run).

   2a. An accumulated profile (DSPROF_FLAG_ACCUMULATE)
   ----------------------------------------------------
   Processes run with DSPROF_ACCUMULATE=1 add their chunks to one file, at the
   same time.  Its header is a container: `end` is where the next chunk goes,
   advanced by each writer with an atomic add on the mapped header (it is not
   a committed length: a chunk below it may not be written yet), and the file
   is grown with fallocate, which never shrinks it.  Each process first adds
   a DSPROF_CHUNK_PROCESS chunk, one page: struct dsprof_process_chunk, whose
   header is that process's (pid, times, flags, recorder figures; its `end`
   unused).  Every chunk's kind is then DSPROF_CHUNK_KIND | proc << 8, proc
   the page number (offset / DSPROF_PAGE) of its process's chunk, stored once
   the chunk is written: a writer stores the chunk's size (kind 0) as soon as
   it has its space, and the kind with its process last, so a reader skips a
   chunk of kind 0 by its size, and a page of zeros (a writer that died before
   it stored the size: nothing of the chunk was written) one page at a time.
   A unit chunk whose check word does not match its metadata (its writer died
   while writing it) is skipped too.  Each process keeps its own units (site
   ids), threads and clock.
   A chunk whose space its writer could not allocate (a full disk) is a hole
   in the file (a later chunk of another process may extend the file past
   it): readers step over holes without reading them (SEEK_DATA), since
   reading a hole of a full tmpfs through a mapping faults.
   The profile is live, and not to be replaced as a stale profile, while
   the process that made it (the file header's pid) or any process whose
   chunk it holds is running (pid and start time, as for any profile), or
   while a process is joining it: a joiner holds a shared flock on the file
   from its open until its process chunk's kind is stored, and a process
   that would replace the profile reads the process chunks under an
   exclusive one (LOCK_NB on both sides: nobody waits).  Only a profile of
   the joiner's own user that no other user can write is joined.

   3. Unit metadata blob
   ---------------------
   A sequence of ULEB128 numbers and strings (ULEB128 length, then bytes, no NUL).
   It opens with a header, then tagged records, so readers skip what they do not know:

     uleb DSPROF_META_VERSION
     str  source file, as given to the compiler
     str  compilation directory
     repeated:  uleb tag, uleb length, `length` bytes of record
       DSPROF_TAG_FILE      str path                 -> file index 0, 1, 2 ... in order
       DSPROF_TAG_FUNCTION  str name, uleb file, uleb line (of the definition),
                            uleb first_counter, uleb nblocks, then nblocks times:
                              uleb nlocs, nlocs x (uleb file, uleb line)
                            Block k of the function has counter first_counter + k.
                            Its first location is the block's line (its first located
                            statement); the others are every other line it holds
                            statements on (for listings), without duplicates.
       DSPROF_TAG_SITE      an event site (an annotated function):
                            uleb index (into the unit's site id array), str event
                            type, str function name, uleb file, uleb line, uleb
                            ndims, ndims x dim, then a dim named "result" with type
                            DSPROF_DIM_NONE for a void function.
                            dim = str name, uleb type (DSPROF_DIM_*), and for
                            DSPROF_DIM_ENUM: uleb n, n x (sleb value, str name).
       DSPROF_TAG_DISPATCH  the dispatch of a bytecode VM function (plugin
                            argument dispatch=FUNC): uleb first site index,
                            uleb n, str function.  Sites first .. first + n - 1
                            are its targets in the order of the hook's INDEX
                            (section 1), each a DSPROF_TAG_SITE record of event
                            type "op" named after its opcode, the file and line
                            of its label, and no dim but a "result" of type
                            DSPROF_DIM_NONE; their records get the constant
                            dimension `function` = FUNC.
       DSPROF_TAG_DISPATCH_ASKED  a dispatch function the unit was compiled to
                            instrument (plugin argument dispatch=FUNC, a
                            selection file's `dispatch'), whether or not the unit
                            defines it: str function.  One per name.  A reader
                            tells the user of a name no unit's DSPROF_TAG_DISPATCH
                            has; readers that do not know it skip it.
       DSPROF_TAG_FLOW      right after a function's DSPROF_TAG_FUNCTION record: its
                            counters are on the edges of its control-flow graph,
                            not on its blocks (section 3a).  Without it, block k
                            has counter first_counter + k.
       DSPROF_TAG_BRANCHES  right after a function's DSPROF_TAG_FLOW record: its
                            branches (section 3b).  Readers that do not know it
                            skip it.
   Counter indices of a unit's functions are disjoint and below the unit's ncounters.

   3a. Counters on edges (DSPROF_TAG_FLOW)
   ---------------------------------------
   As gcov does, the plugin counts only the edges of a function's control-flow
   graph that are off a spanning tree of it; a reader derives the others by flow
   conservation (what enters a node leaves it), and a block's count is the sum
   of the edges into its node.  The record describes the graph:

     uleb nnodes     node 0 is the function's ENTRY and EXIT as one node; node
                     k + 1 is block k of the DSPROF_TAG_FUNCTION record; the
                     nodes past nblocks are blocks without a line and the extra
                     nodes of blocks entered or left by edges that cannot be
                     counted (no count reported).  nblocks + 1 <= nnodes <=
                     nblocks + 1 + 2 * nedges.
     uleb nedges
     nedges x (uleb src, uleb dst, uleb how)
                     how >= 2: the edge's count is counter first_counter + how - 2;
                     how 0 / 1: a tree edge, derived by the conservation at its
                     src (0) or dst (1) node: the edge is what that node's other
                     edges, all known by then, leave unbalanced.  Tree edges are
                     listed in the order they are to be derived.
   Besides the CFG's edges the graph holds fake edges, which are tree edges: node
   -> 0 for a block that may be left without taking one of its edges (a call in
   it may not return: exit, abort, longjmp, fork's child, a kill while inside it;
   a volatile access, where a thread may poll or fault; no successor) and for
   the latch of a loop that has no such block (where a thread may be killed),
   and 0 -> node for the target of edges that cannot be counted (a computed
   goto's, a longjmp's return to setjmp), which are left out.

   What the derived counts guarantee.  For a process that ran to its end, or was
   stopped while each of its threads was inside a call with a fake edge or at a
   volatile access (exit, abort, _exit, a kill or crash inside a system call or a
   library function, a fork child's counts from its first moment), they are the
   exact counts.  Calls without a fake edge are those of const and pure
   functions, of nothrow built-ins (but for fork and stdio), and of functions of
   the same unit that can only return.  A thread stopped anywhere else (killed,
   crashed, or running while the file is read), or a signal handler that left
   such a point by longjmp, leaves one unit of flow unbalanced in the function
   it was in, and in each of its frames inside a call without a fake edge: the
   counts of that function's blocks on the tree path from where it stopped to
   node 0 may each be one more or one less than the exact count.  In a loop
   without calls, that path leads to the fake edge on the loop's latch: the
   counts outside the loop stay exact.  Updates lost
   between threads without update=atomic may also unbalance the flow.  A
   derived count below 0 reads as 0.

   3b. Branches (DSPROF_TAG_BRANCHES)
   ----------------------------------
   The blocks that end in a conditional jump or a switch, as gcov lists their
   branches (`gcov -b`, `--json-format`): under the line gcov gives them, the
   edges out of the block other than fake ones, in gcov's order.  Their
   counts are edges of the flow record, so they cost no counter.

     uleb nblocks
     nblocks x (uleb file, uleb line, uleb narcs,
                narcs x (uleb edge, uleb flags))
                     edge: the index of the branch's edge in the function's
                     flow record (its place in the list, from 0); flags:
                     DSPROF_BRANCH_FALLTHROUGH if the edge goes to the next
                     block in the code (gcov's "fallthrough").
   A block's branches come in the order of their destinations in the code;
   blocks in the order of the function's code.  The line is that of the
   block's last statements (the largest line of the last statements of one
   file after the last call that may not return, the definition line counted
   in the first block), not the block's first location.  The edges of one
   block leave the same node.

   4. Event streams
   ----------------
   Each thread writes its events into DSPROF_CHUNK_EVENTS chunks of its own, in order
   (struct dsprof_events_chunk, then `used` bytes of stream).  Every event starts
   with an op byte (DSPROF_OP_*), then a ULEB128 time delta in clock ticks since the
   previous event of the thread (the first event of a chunk: since the chunk's
   base_ticks).  Ticks run on from chunk to chunk and convert to ns at the file
   header's rate (DSPROF_CLOCK_*), by one linear mapping per thread anchored at
   the (base_ticks, base_ns) pair of its chunks read least late (the recorder
   reads base_ns just after base_ticks).

     ENTER   uleb global site id, then one value per dim of the site
     EXIT    the value of `result` unless the site's result is DSPROF_DIM_NONE
     ABANDON (no payload) the innermost open event ended without its Finish: a
             longjmp past it, or a mismatched manual finish; complete = false
     START   uleb name id (manual dsprof_start: event type = that name)
     FINISH  (no payload) finish of the innermost manual event
     DIM     uleb name id, uleb DSPROF_DIM_* type, value: a dimension added by
             dsprof_dim_* to the innermost open event
     NAME    uleb name id, str text: defines a name id for this thread's stream
             before its first use (no time delta)

   Op records (a bytecode VM's dispatch, section 1) take no Start/Finish
   pair: one event per opcode ends the previous op record of the frame and
   starts the next at the same instant, and at most 4 bytes in the common
   case (a delta below 2^21 ticks):
     OP      uleb dispatch site id D, uleb case index K: an op record of site
             D + K starts, nested in the innermost open record (the first
             opcode of a call of the VM function)
     NEXT    uleb D, uleb K: the innermost open record, an op record, ends and
             one of site D + K starts
     CASE+K  (op bytes DSPROF_OP_CASE + K, 0 <= K < 128; no payload) NEXT
             with the D of the latest OP or NEXT of the chunk: a chunk's first
             NEXT, and the first after another dispatch's, is written in full
     OP_END  (no payload) the innermost open record, an op record, ends (the
             VM function returns)
   An op record left open by a longjmp is closed by ABANDON as any other.

   CPU-time samples (DSPROF_SAMPLE, header flag DSPROF_FLAG_SAMPLED): a
   timer on the thread's CPU clock interrupts it every period of CPU time; a
   sample taken in the program's code is charged to the record innermost at
   that instant, one taken in the recorder's is counted apart.  The recorder
   writes the samples taken since its previous event before its next one:
     SAMPLE  (time delta 0) uleb N, uleb NS, uleb RN, uleb RNS: N samples
             in the program, standing for NS ns of the thread's CPU time,
             all charged to the innermost record open after the previous
             event (none: the thread's time outside records), and RN
             samples (RNS ns) in the recorder

   The recorder's cost, measured in the run.  The last
   sizeof (struct dsprof_events_costs) bytes of every events chunk are not
   stream but a trailer: the thread's figures so far (cumulative since its
   first event), stored when the chunk is made and on every sampled hook
   call, so a killed process keeps them.  On a sample of its calls (a
   per-thread countdown of a pseudo-random period of 64 to 191 calls) a hook
   (DSPROF_HOOK_*) reads the clock also at its entry and just before it
   returns: BEFORE_TICKS sums the ticks from its entry to its event's time
   stamp, AFTER_TICKS those from the time stamp to its return less one read
   of the clock (measured at start-up: the read a sampled call makes more than
   an unsampled one; an earlier recorder kept it in), CALLS counts
   the sampled calls (one that took over 2^18 ticks, but for a chunk setup,
   was interrupted and is left out).  CALLER_TICKS / CALLER_CALLS is the
   part no hook sees, the instrumented caller's guard, value stores and call
   per hook call, calibrated once at start-up (an event function's call
   timed with and without its hooks, less the hooks' inside parts, which
   are without the read that sampling adds).  The op hook's whole
   cost is measured where it runs instead, by probes (docs/contract.md
   §4.4): a probe is three windows of op calls, each timed from time stamp
   to time stamp: one routed through the sampling code (light), one routed
   and replaying the op hook's fast path before each call, writing nothing
   (heavy), one not routed (normal); a batch of probes adds the medians of
   its probes' differences, each as many times as the batch has probes.
   Two more entries of HOOK are not hooks (0 in an older recorder's
   profile): HOOK[DSPROF_COST_OP_PROBE]: CALLS the heavy windows' replayed
   calls (of the probes counted), BEFORE_TICKS what they cost (heavy less
   light), AFTER_TICKS what routing as many calls costs (light less
   normal); HOOK[DSPROF_COST_OP_EXTRA]: CALLS the thread's op calls
   (estimated from the sampling countdown), BEFORE_TICKS what the probes
   themselves cost (their routed calls and replays at those figures),
   AFTER_TICKS 0.  An op hook call costs the first's BEFORE_TICKS / CALLS
   plus the second's.  A chunk's setup (its file
   space, its mapping, its pages faulted in) is rare and dear, so it is timed
   every time rather than sampled: SETUP_TICKS is the chunk's own (not
   cumulative), taken out of the sampled call it fell in.  It lies inside
   the records open both before and after the chunk's first event (a
   Start's or an op's setup comes before its time stamp, for the hook reads
   the clock again after it; a Finish's or a dimension's after).  UNIT_PS 0:
   the figures are clock ticks; else picoseconds times UNIT_PS (dsprof merge
   writes 1).  MAGIC is DSPROF_COSTS_MAGIC: a chunk whose stream reaches into
   the trailer's bytes, or whose magic differs (a still older recorder's), has
   none; with DSPROF_COSTS_MAGIC_1 the two entries after the hooks are the op
   probe before the windows: a sampled op call's stretch to the next call's
   time stamp with a replay (CALLS of them, BEFORE_TICKS summed) and without,
   at least 100 of each for their means' difference to be an op hook call's
   cost.  The trailer of a stream's last chunk that has one wins; readers
   deduct its figures from records (docs/contract.md §4.4).

   Values by type: INT zigzag uleb; UINT, BOOL, ENUM (two's complement as uleb),
   uleb; DOUBLE 8 bytes (IEEE, host order); STR uleb (len << 1 | truncated) + 1 or 0
   for NULL, then len bytes (len at most DSPROF_STR_MAX; truncated: the
   program's string was longer); PTR uleb 0 then uleb address, or uleb 1 then a
   string as STR (the text of a formatter registered for the dim).

   Repeated strings (format version 2).  A STR value (a STR dim's, or a PTR
   dim's text) written in full with at least DSPROF_STR_REF_MIN bytes of text
   defines the chunk's next string, 0, 1, 2 ... in stream order; a later STR
   value of the same chunk may instead be the head DSPROF_STR_REF (the uleb 2,
   which no string uses: an empty string is never cut) then uleb k: the same
   text and truncated bit as the chunk's defined string k.  A reference never
   leaves its chunk (as a name id, so a chunk reads alone, and the copy it
   refers to is in the same mapping); k at or past the number of strings the
   chunk has defined so far is a corrupt stream.  The runtime writes a
   reference for a string its thread wrote earlier in the chunk (exact bytes,
   same truncation) while its small table of recent strings still holds it;
   otherwise the string in full, as version 1 did.  Readers read version 1
   as version 2: it has no references.  */

#ifndef DSPROF_FORMAT_H
#define DSPROF_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define DSPROF_MAGIC "DSPROF\x1a\x01"
#define DSPROF_MAGIC_SIZE 8
#define DSPROF_FORMAT_VERSION 2u
/* The oldest version readers read: 1 differs only by lacking string
   references (section 4).  */
#define DSPROF_FORMAT_VERSION_MIN 1u
#define DSPROF_PAGE 4096u
#define DSPROF_COUNTERS_PER_PAGE (DSPROF_PAGE / 8u)
#define DSPROF_META_VERSION 1u

/* Byte 0 of the file.  All fields written by the runtime; `end` is the committed
   length and is the last thing written when a chunk is added.  */
struct dsprof_file_header
{
  char magic[DSPROF_MAGIC_SIZE];
  uint32_t version;          /* DSPROF_FORMAT_VERSION */
  uint32_t header_size;      /* DSPROF_PAGE */
  uint64_t end;              /* committed length of the file, a multiple of a page */
  int64_t pid;
  int64_t ppid;
  uint64_t start_ns;         /* CLOCK_REALTIME at start, ns since the epoch */
  uint64_t start_mono_ns;    /* CLOCK_MONOTONIC at start */
  uint64_t stop_mono_ns;     /* CLOCK_MONOTONIC at normal exit; 0 if the process never
                                got there (killed, crashed, _exit, still running) */
  uint64_t flags;            /* DSPROF_FLAG_* */
  uint64_t clock;            /* DSPROF_CLOCK_*: what event ticks count */
  uint64_t start_ticks;      /* clock ticks at start_mono_ns */
  uint64_t stop_ticks;       /* clock ticks at stop_mono_ns (0: see stop_mono_ns) */
  uint64_t pair_overhead_ps; /* measured cost of one Start/Finish pair, picoseconds */
  uint64_t dropped_events;   /* events lost for want of space */
  uint64_t stray_dims;       /* dsprof_dim_* calls outside any event (dropped) */
  uint64_t repaired_events;  /* open events closed by repair (complete = false) */
  uint64_t tick_hz;          /* clock ticks per second, measured at start */
  char exe[256];             /* /proc/self/exe or argv[0], NUL terminated */
  uint64_t single_threads;   /* threads that ran code counted with
                                update=single (section 1), or that shared
                                a shard (section 2b): more than one, and
                                increments may have been lost */
  /* Where the run's time went, written at normal exit just before
     stop_mono_ns (0 in older profiles and where stop_mono_ns is 0): a run on
     a busy machine has records that hold time spent waiting for a CPU.  */
  uint64_t cpu_ns;           /* user + system CPU time of the process, all its
                                threads (getrusage RUSAGE_SELF) */
  uint64_t run_delay_ns;     /* time its threads live at exit waited on a run
                                queue for a CPU (/proc/self/task/N/schedstat) */
  uint64_t run_delay_threads; /* how many threads run_delay_ns sums; 0: the
                                 kernel does not tell (no schedstat) */
};

#define DSPROF_CLOCK_NS 0u       /* ticks are CLOCK_MONOTONIC nanoseconds */
#define DSPROF_CLOCK_TSC 1u      /* ticks are an invariant TSC's */

#define DSPROF_FLAG_FORKED 1u     /* written by a forked child: counts from the fork */
#define DSPROF_FLAG_TRUNCATED 2u  /* out of space, or the file was cut short
                                     while the program ran: chunks are missing */
#define DSPROF_FLAG_ACCUMULATE 4u /* many processes' chunks (section 2a) */
#define DSPROF_FLAG_SAMPLED 8u    /* the threads' CPU time was sampled
                                     (DSPROF_SAMPLE): their streams hold SAMPLE
                                     events (section 4) */

struct dsprof_chunk
{
  uint32_t kind;             /* DSPROF_CHUNK_* */
  uint32_t check;            /* unit chunks: dsprof_meta_hash of the metadata;
                                otherwise 0 */
  uint64_t size;             /* of the whole chunk, header included; pages */
};

#define DSPROF_CHUNK_UNIT 1u
#define DSPROF_CHUNK_EVENTS 2u
#define DSPROF_CHUNK_UNITS 3u
#define DSPROF_CHUNK_PROCESS 4u

/* The kind of a chunk and, in an accumulated profile (section 2a), the page
   of its process's chunk (0 in other profiles).  */
#define DSPROF_CHUNK_KIND(kind) ((kind) & 0xffu)
#define DSPROF_CHUNK_PROC(kind) ((kind) >> 8)

/* A process of an accumulated profile: its header, as a profile of its own
   would have it.  */
struct dsprof_process_chunk
{
  struct dsprof_chunk chunk;
  struct dsprof_file_header header;
};
#define DSPROF_CHUNK_CONTROL 5u
/* update=thread (section 2b): a unit whose counters live in the process's
   shards (struct dsprof_unit_chunk, counters_offset the index of its counter
   0 in every shard; no counter pages), and one shard.  */
#define DSPROF_CHUNK_TUNIT 6u
#define DSPROF_CHUNK_SHARD 7u

/* The first page of a DSPROF_CHUNK_SHARD chunk; its counters fill the pages
   after it (chunk.size - DSPROF_PAGE bytes: ncounters of them).  */
struct dsprof_shard_chunk
{
  struct dsprof_chunk chunk;
  uint64_t ncounters;
  uint64_t first;               /* the index of its first counter (0 in
                                   files before segments) */
};
/* Counters of a shard (the process's counter space), and the index where
   the first unit's counters start: below it, the sink that code of a unit
   not registered yet counts into (index 0), read by nobody.  */
#define DSPROF_SHARD_COUNTERS (1u << 22)
#define DSPROF_SHARD_SINK (1u << 16)

struct dsprof_unit_chunk
{
  struct dsprof_chunk chunk;
  uint32_t ncounters;
  uint32_t meta_size;
  uint64_t counters_offset;  /* absolute file offset of the counters, page aligned */
  uint32_t site_base;        /* global id of the unit's site 0; site k has id
                                site_base + k (0: the unit has no sites) */
  uint32_t nsites;
  /* meta_size bytes of metadata follow */
};

/* The head of a DSPROF_CHUNK_UNITS chunk (chunk.check is 0; each record has
   its own).  The records start right after it.  */
struct dsprof_units_chunk
{
  struct dsprof_chunk chunk;
  uint32_t nunits;
  uint32_t reserved;         /* 0 */
  uint64_t records_size;     /* bytes of the records, a multiple of 8 */
};

/* The first page of a DSPROF_CHUNK_CONTROL chunk (section 2a); chunk.size is
   2 * DSPROF_PAGE, and the control page, the flag at its offset 0, is at the
   chunk's offset + DSPROF_PAGE.  */
struct dsprof_switch
{
  uint64_t mono_ns;          /* CLOCK_MONOTONIC when it took effect */
  uint32_t on;               /* 1: events on from then, 0: off */
  uint32_t reserved;         /* 0 */
};

struct dsprof_control_chunk
{
  struct dsprof_chunk chunk;
  uint32_t mapped;           /* 1: the process maps the control page */
  uint32_t events_at_start;  /* the flag when the profile was made */
  uint32_t nswitches;        /* switches[0 .. nswitches) are written */
  uint32_t reserved;         /* 0 */
  struct dsprof_switch switches[];
};

#define DSPROF_CONTROL_MAX_SWITCHES \
  ((DSPROF_PAGE - sizeof (struct dsprof_control_chunk)) / sizeof (struct dsprof_switch))

#define DSPROF_TAG_FILE 1u
#define DSPROF_TAG_FUNCTION 2u
#define DSPROF_TAG_SITE 3u
#define DSPROF_TAG_FLOW 4u
#define DSPROF_TAG_BRANCHES 5u

#define DSPROF_BRANCH_FALLTHROUGH 1u   /* a DSPROF_TAG_BRANCHES edge's flags */
#define DSPROF_TAG_DISPATCH 6u
#define DSPROF_TAG_DISPATCH_ASKED 7u

/* Types of dimension values.  */
enum dsprof_dim_type
{
  DSPROF_DIM_NONE = 0,   /* no value (the result of a void function) */
  DSPROF_DIM_INT = 1,
  DSPROF_DIM_UINT = 2,
  DSPROF_DIM_BOOL = 3,
  DSPROF_DIM_ENUM = 4,   /* signed value; names from the site's table */
  DSPROF_DIM_DOUBLE = 5,
  DSPROF_DIM_STR = 6,    /* char *: the text is copied at the event */
  DSPROF_DIM_PTR = 7
};

/* The most bytes a STR value holds: the format's bound, which readers enforce.
   The runtime keeps DSPROF_STRMAX bytes of a string (1,024 by default, at most
   this), then "..." (the value's truncated bit); it cuts before a UTF-8
   character that would not fit whole.  */
#define DSPROF_STR_MAX 65536u

/* A STR value of at least this many bytes of text, written in full, is a
   string of its chunk that later values may refer to; the head of such a
   reference (section 4).  */
#define DSPROF_STR_REF_MIN 8u
#define DSPROF_STR_REF 2u

struct dsprof_events_chunk
{
  struct dsprof_chunk chunk;
  uint32_t thread;          /* 1, 2, ... in the order threads first record */
  uint32_t seq;             /* 0, 1, ... chunks of this thread */
  uint64_t used;            /* bytes of stream after this header, release-stored
                               after each complete event */
  uint64_t base_ticks;      /* clock at the start of the chunk */
  uint64_t base_ns;         /* CLOCK_MONOTONIC ns at the same moment */
};

enum dsprof_op
{
  DSPROF_OP_ENTER = 1,
  DSPROF_OP_EXIT = 2,
  DSPROF_OP_ABANDON = 3,
  DSPROF_OP_START = 4,
  DSPROF_OP_FINISH = 5,
  DSPROF_OP_DIM = 6,
  DSPROF_OP_NAME = 7,
  /* Op records (dispatch): section 4.  */
  DSPROF_OP_OP = 8,
  DSPROF_OP_NEXT = 9,
  DSPROF_OP_OP_END = 10,
  /* CPU-time samples (DSPROF_SAMPLE): section 4.  */
  DSPROF_OP_SAMPLE = 11,
  DSPROF_OP_CASE = 128       /* to 255: CASE + K */
};

/* The case indices a one-byte NEXT (DSPROF_OP_CASE + K) holds.  */
#define DSPROF_OP_CASES 128u

/* The recorder's cost of one thread, in the last bytes of each of its events
   chunks (section 4).  */
#define DSPROF_COSTS_MAGIC 0x3274736f63707364ull   /* "dspcost2" */
/* An older recorder's trailer: HOOK[6] and HOOK[7] the op probe's single
   stretches with and without a replay (the report's costs_trailer turns
   them into the figures above).  */
#define DSPROF_COSTS_MAGIC_1 0x7374736f63707364ull /* "dspcosts" */

enum dsprof_hook
{
  DSPROF_HOOK_ENTER = 0,     /* __dsprof_enter_v2 */
  DSPROF_HOOK_EXIT = 1,      /* __dsprof_exit_v1 */
  DSPROF_HOOK_START = 2,     /* dsprof_start */
  DSPROF_HOOK_FINISH = 3,    /* dsprof_finish */
  DSPROF_HOOK_DIM = 4,       /* dsprof_dim_* */
  DSPROF_HOOK_OP = 5,        /* __dsprof_op_v1 (an op record's boundary) */
  /* Not hooks: the op hook's probes, in a hook's form (section 4).  */
  DSPROF_COST_OP_PROBE = 6,  /* the op hook call's cost, probed */
  DSPROF_COST_OP_EXTRA = 7,  /* the probes' own cost, and the op calls */
  DSPROF_NHOOKS = 8
};

struct dsprof_hook_cost
{
  uint64_t calls;            /* sampled calls */
  uint64_t before_ticks;     /* entry to the time stamp, summed */
  uint64_t after_ticks;      /* time stamp to return, summed */
};

struct dsprof_events_costs
{
  uint64_t magic;            /* DSPROF_COSTS_MAGIC */
  uint64_t unit_ps;          /* 0: the ticks below are clock ticks; else
                                UNIT_PS picoseconds each (dsprof merge's: 1) */
  uint64_t setup_ticks;      /* this chunk's own setup (not cumulative) */
  uint64_t caller_ticks;     /* the caller's part of CALLER_CALLS hook calls */
  uint64_t caller_calls;
  struct dsprof_hook_cost hook[DSPROF_NHOOKS];
};

/* A bounded reader over a metadata blob.  On any overrun it sets ERR and returns 0
   forever after, so decoders can read a whole record and check once.  */
struct dsprof_cursor
{
  const unsigned char *p, *end;
  int err;
};

static inline uint64_t
dsprof_read_uleb (struct dsprof_cursor *c)
{
  uint64_t v = 0;
  unsigned shift = 0;
  if (c->end - c->p >= 10 && !c->err)
    {
      /* Ten bytes hold any number: no bound checks per byte.  */
      for (int i = 0; i < 10; i++, shift += 7)
        {
          unsigned char b = *c->p++;
          v |= (uint64_t) (b & 0x7f) << shift;
          if (!(b & 0x80))
            return v;
        }
      c->err = 1;
      return 0;
    }
  while (!c->err)
    {
      if (c->p >= c->end || shift > 63)
        {
          c->err = 1;
          break;
        }
      unsigned char b = *c->p++;
      v |= (uint64_t) (b & 0x7f) << shift;
      if (!(b & 0x80))
        return v;
      shift += 7;
    }
  return 0;
}

/* Read a string: its bytes at *S (not NUL terminated), its length returned.  */
static inline size_t
dsprof_read_str (struct dsprof_cursor *c, const char **s)
{
  uint64_t n = dsprof_read_uleb (c);
  if (c->err || n > (uint64_t) (c->end - c->p))
    {
      c->err = 1;
      *s = "";
      return 0;
    }
  *s = (const char *) c->p;
  c->p += n;
  return (size_t) n;
}

/* The check word of a unit chunk: 32-bit FNV-1a over its metadata, so a reader
   tells a damaged table from a valid one.  */
static inline uint32_t
dsprof_meta_hash (const void *meta, size_t size)
{
  const unsigned char *p = (const unsigned char *) meta;
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < size; i++)
    h = (h ^ p[i]) * 16777619u;
  return h;
}

/* ---- writing -------------------------------------------------------------------

   The encoders write at P, which has room for what they write (a number takes at
   most 10 bytes), and return the end of what they wrote.  They are inline: the
   recorder encodes every event with them.  */

/* ULEB128 of V.  */
static inline unsigned char *
dsprof_encode_uleb (unsigned char *p, uint64_t v)
{
  while (v >= 0x80)
    {
      *p++ = (unsigned char) (v | 0x80);
      v >>= 7;
    }
  *p++ = (unsigned char) v;
  return p;
}

/* Encode V at BUF (at least 10 bytes), return the number of bytes written.  */
static inline size_t
dsprof_put_uleb (unsigned char *buf, uint64_t v)
{
  return (size_t) (dsprof_encode_uleb (buf, v) - buf);
}

/* A string of metadata: its length N, then its N bytes, no NUL (P has room for
   N + 10 bytes).  */
static inline unsigned char *
dsprof_encode_str (unsigned char *p, const void *s, size_t n)
{
  p = dsprof_encode_uleb (p, n);
  if (n)
    memcpy (p, s, n);
  return p + n;
}

/* A metadata record: TAG, then the N bytes of BODY with their length (P has
   room for N + 20 bytes).  */
static inline unsigned char *
dsprof_encode_record (unsigned char *p, uint64_t tag, const void *body, size_t n)
{
  return dsprof_encode_str (dsprof_encode_uleb (p, tag), body, n);
}

/* The zigzag mapping of a signed number to an unsigned one (0, -1, 1, -2 ... to
   0, 1, 2, 3 ...), which INT values and enum tables store as ULEB128, and back.  */
static inline uint64_t
dsprof_zigzag (int64_t x)
{
  return ((uint64_t) x << 1) ^ (uint64_t) (x >> 63);
}

static inline int64_t
dsprof_unzigzag (uint64_t z)
{
  return (int64_t) (z >> 1) ^ -(int64_t) (z & 1);
}

/* The head of a STR value of LEN bytes (at most DSPROF_STR_MAX), TRUNCATED if the
   program's string was longer; LEN bytes of text follow it.  */
static inline unsigned char *
dsprof_encode_str_head (unsigned char *p, size_t len, int truncated)
{
  return dsprof_encode_uleb (p, ((uint64_t) len << 1 | (truncated != 0)) + 1);
}

/* A STR value that is the text of the chunk's defined string K (section 4).  */
static inline unsigned char *
dsprof_encode_str_ref (unsigned char *p, uint32_t k)
{
  *p++ = DSPROF_STR_REF;
  return dsprof_encode_uleb (p, k);
}

/* The value V of a number dimension of TYPE: INT (V as int64_t), UINT, BOOL,
   ENUM, DOUBLE (V the bits of the double), or PTR shown as its address.  STR
   values and PTR values shown as text are a head and bytes (above).  */
static inline unsigned char *
dsprof_encode_number (unsigned char *p, int type, uint64_t v)
{
  switch (type)
    {
    case DSPROF_DIM_INT:
      return dsprof_encode_uleb (p, dsprof_zigzag ((int64_t) v));
    case DSPROF_DIM_DOUBLE:
      memcpy (p, &v, 8);
      return p + 8;
    case DSPROF_DIM_PTR:
      *p++ = 0;
      return dsprof_encode_uleb (p, v);
    default:
      return dsprof_encode_uleb (p, v);
    }
}

/* ---- reading: dsprof-format.c ---------------------------------------------------

   Out of line, in include/dsprof-format.c, which the runtime, the report tool and
   the tests compile (the plugin only writes, with the inline part).  None of it
   allocates; every read is bounded by its cursor, and a malformed input sets the
   cursor's ERR and makes the call return -1.  */

#ifdef __cplusplus
extern "C" {
#endif

/* A unit metadata blob (section 3): its header, and a cursor over the records
   not read yet.  */
struct dsprof_meta
{
  struct dsprof_cursor c;
  uint64_t version;
  const char *source, *compdir;   /* not NUL terminated; "" if unreadable */
  size_t source_len, compdir_len;
};

/* Read the header of the SIZE bytes of metadata at BLOB into *M.  Return 0, or
   -1 if it is cut short.  The version is not checked: the caller says how it
   refuses another.  */
int dsprof_meta_open (struct dsprof_meta *m, const void *blob, size_t size);

/* The next record of M: its tag in *TAG and its body as the cursor *BODY.
   Return 1, 0 at the end of the blob, or -1 (M->c.err set) if the record is
   cut short.  */
int dsprof_meta_next (struct dsprof_meta *m, uint64_t *tag,
                      struct dsprof_cursor *body);

/* The fixed fields of a DSPROF_TAG_SITE record, and a cursor over its dims.  */
struct dsprof_site_rec
{
  uint64_t index;                 /* into the unit's site id array */
  const char *type, *name;        /* event type, function; not NUL terminated */
  size_t type_len, name_len;
  uint64_t file, line;
  uint64_t ndims;                 /* the parameters' and the result: >= 1 */
  struct dsprof_cursor dims;      /* for dsprof_site_next_dim, NDIMS times */
};

/* Read the fixed fields of the site record BODY into *S.  Return 0, or -1 if
   the record is malformed (cut short, no result dim, more dims than bytes).  */
int dsprof_site_read (struct dsprof_cursor *body, struct dsprof_site_rec *s);

/* One dim of a site record.  */
struct dsprof_site_dim
{
  const char *name;               /* not NUL terminated */
  size_t name_len;
  int type;                       /* DSPROF_DIM_* */
  uint64_t nenum;                 /* DSPROF_DIM_ENUM: entries of its table */
  struct dsprof_cursor enums;     /* for dsprof_site_next_enum, NENUM times */
};

/* Read the next dim of a site record at DIMS into *D.  Return 0, or -1 if it
   is malformed (cut short, an unknown type, a bad enum table).  */
int dsprof_site_next_dim (struct dsprof_cursor *dims,
                          struct dsprof_site_dim *d);

/* Read the next entry of an enum table at ENUMS: its value and name.  Return 0
   or -1.  */
int dsprof_site_next_enum (struct dsprof_cursor *enums, int64_t *value,
                           const char **name, size_t *len);

/* A value of an event stream (section 4), decoded.  */
struct dsprof_value
{
  uint64_t u;                     /* INT: as int64_t; DOUBLE: its bits; PTR:
                                     the address unless TEXT */
  const char *s;                  /* STR, and PTR if TEXT: the bytes, in the
                                     stream; NULL for a NULL string */
  uint32_t len;                   /* of S, at most DSPROF_STR_MAX */
  int truncated;                  /* the program's string was longer */
  int text;                       /* PTR: shown as a formatter's text in S */
  int ref;                        /* a reference to the chunk's defined string
                                     U: S, LEN and TRUNCATED are the caller's
                                     to fill in (section 4) */
};

/* Whether V, read by dsprof_read_value, defines its chunk's next string.  */
static inline int
dsprof_value_defines (const struct dsprof_value *v)
{
  return v->s && !v->ref && v->len >= DSPROF_STR_REF_MIN;
}

/* Decode a value of TYPE at C into *V.  Return 0, or -1 if it is malformed
   (cut short, a string longer than DSPROF_STR_MAX, a type without values).  A
   reference to a defined string is decoded as V->ref and its number in V->u:
   resolving it takes the chunk's strings, which the caller keeps.  */
int dsprof_read_value (struct dsprof_cursor *c, int type, struct dsprof_value *v);

/* Step over a value of TYPE at C.  Return 0 or -1, as dsprof_read_value.  */
int dsprof_skip_value (struct dsprof_cursor *c, int type);

/* ---- whose process is it? ------------------------------------------------------- */

/* A process's start is known to a clock tick (/proc/PID/stat): a profile made
   within this much of it counts as made after it.  */
#define DSPROF_START_SLACK_NS (1000000000u / 100)

/* When the process whose /proc/PID/stat text is STAT started, in
   CLOCK_MONOTONIC ns to a clock tick, given HZ clock ticks per second and the
   clocks CLOCK_BOOTTIME (BOOT_NS) and CLOCK_MONOTONIC (MONO_NS) read now; 0
   when STAT does not say.  The runtime asks it before it replaces a profile,
   the dsprof command before it calls a profile's process live: a pid that
   now names a process started after the profile was made is another's.  */
uint64_t dsprof_stat_start_mono (const char *stat, long hz, uint64_t boot_ns,
                                 uint64_t mono_ns);

#ifdef __cplusplus
}
#endif

#endif /* DSPROF_FORMAT_H */
