; Layer normalisation of one f32 row of 64 values:
;   mean = sum(x) / 64 (vredsum, then vmuls by 1/64, exact), broadcast through the UB;
;   d = x - mean; var + eps = sum(d * d + eps) / 64, each d * d + eps one fused vmadd (eps = 2^-10);
;   rstd = 1 / sqrt(var + eps) (vsqrt, vdiv), broadcast; y = (d * rstd) * gamma + beta, the last step
;   one fused vmadd. `stats` keeps mean, rstd and var + eps.
; Input: x[i] = ((29 i) mod 64) / 8 - 4: the 64 multiples of 1/8 in [-4, 3.875], so mean = -0.0625 and
; every d is exact; gamma[i] = 1 + i/64, beta[i] = i/32 - 1. The expected values below come from the
; model in tests/test_compound.py (exact rationals, each step rounded once to f32), which checks them
; and that (y - beta) / gamma has mean 0 and variance 1 (within eps).
.ub x     f32[64] = ((i * 29) % 64) / 8 - 4
.ub gamma f32[64] = 1 + i / 64
.ub beta  f32[64] = i / 32 - 1
.ub y     f32[64]
.ub stats f32[8]                        ; [0] mean, [1] rstd, [2] var + eps
.out y, stats

        mask     p0.b32, ALL
        vld      v0.f32, [x]
        vredsum  v1.f32, v0.f32, p0        ; lane 0: sum(x)
        vmuls    v1.f32, v1.f32, 0.015625, p0
        vsta.1st [stats], v1.f32
        membar
        vld.brc  v2.f32, [stats]           ; mean in every lane
        vsub     v3.f32, v0.f32, v2.f32, p0    ; d
        vdup     v4.f32, 0.0009765625       ; eps
        vmov     v5.f32, v3.f32, p0        ; a copy of d: vmadd multiplies its destination
        vmadd    v5.f32, v3.f32, v4.f32, p0    ; d * d + eps, rounded once
        vredsum  v6.f32, v5.f32, p0
        vmuls    v6.f32, v6.f32, 0.015625, p0  ; lane 0: var + eps
        vsta.1st [stats + 8], v6.f32
        vsqrt    v6.f32, v6.f32, p0
        vdup     v7.f32, 1.0
        vdiv     v6.f32, v7.f32, v6.f32, p0    ; lane 0: rstd (the other lanes 1/0 = inf, unused)
        vsta.1st [stats + 4], v6.f32
        membar
        vld.brc  v8.f32, [stats + 4]       ; rstd in every lane
        vmul     v9.f32, v3.f32, v8.f32, p0
        vld      v10.f32, [gamma]
        vld      v11.f32, [beta]
        vmadd    v9.f32, v10.f32, v11.f32, p0  ; (d * rstd) * gamma + beta, rounded once
        vsta     [y], v9.f32, p0
        halt

.expect stats = [-0.0625, 0.43302589654922485, 5.3330078125, 0.0, 0.0, 0.0, 0.0, 0.0]
.expect y = [-2.7050395011901855, -1.106184959411621, 0.5417232513427734, -1.387906789779663, 0.3039807081222534, -1.6899265050888062, 0.045939989387989044, -2.012244462966919, -0.23239873349666595, -2.354860544204712, -0.5310355424880981, 1.3418431282043457, -0.8499704599380493, 1.066887378692627, -1.1892035007476807, 0.7716335654258728, -1.5487345457077026, 0.45608165860176086, -1.9285637140274048, 0.12023168802261353, -2.328691005706787, -0.2359163910150528, 1.905911922454834, -0.6123625636100769, 1.5734450817108154, -1.0091068744659424, 1.2206798791885376, -1.4261492490768433, 0.8476167321205139, -1.8634896278381348, 0.45425552129745483, -2.3211281299591064, 0.04059617966413498, 2.4513742923736572, -0.39336124062538147, 2.0613958835601807, -0.8476167917251587, 1.6511197090148926, -1.322170376777649, 1.2205452919006348, -1.8170219659805298, 0.7696727514266968, -2.33217191696167, 0.2985021770000458, 2.9782299995422363, -0.1929665207862854, 2.53074049949646, -0.7047332525253296, 2.062952995300293, -1.2367980480194092, 1.5748672485351562, -1.7891610860824585, 1.0664833784103394, -2.3618221282958984, 0.5378015637397766, 3.486478805541992, -0.011178340762853622, 2.981478214263916, -0.5804563164710999, 2.45617938041687, -1.1700325012207031, 1.9105825424194336, -1.7799065113067627, 1.344687581062317]
