// /teamApply (no side bar): apply for a team account for one's organisation. An operator reviews it; on approval
// the applicant becomes the team's root (超级管理员).
import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Field, Textarea } from '@chakra-ui/react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import { userInfoQuery } from '../../../api/queries';
import { ApplyShell, EMAIL, PHONE, TextField } from './ApplyShell';

export default function TeamApply() {
  const { t } = useLingui();
  const me = useQuery(userInfoQuery({ silent: true }));
  const [form, setForm] = useState({
    name: '',
    contact_name: '',
    phone: '',
    email: '',
    address: '',
    user_num: '',
    remark: '',
  });
  const set = (key: keyof typeof form) => (value: string) => setForm({ ...form, [key]: value });
  const phone = form.phone || me.data?.phone || '';
  const email = form.email.trim();
  const submit = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/enterprise/v1/team-application', {
          body: {
            name: form.name.trim(),
            contact_name: form.contact_name.trim(),
            phone,
            ...(email ? { email } : {}),
            ...(form.address.trim() ? { address: form.address.trim() } : {}),
            ...(form.user_num ? { user_num: Number(form.user_num) } : {}),
            ...(form.remark.trim() ? { remark: form.remark.trim() } : {}),
          },
        }),
        { silent: true },
      ),
  });
  const size = form.user_num;
  const valid =
    form.name.trim().length >= 2 &&
    form.contact_name.trim().length >= 1 &&
    PHONE.test(phone) &&
    (!email || EMAIL.test(email)) &&
    (!size || (/^\d+$/.test(size) && Number(size) >= 1 && Number(size) <= 100000));
  return (
    <ApplyShell
      testId="team-apply"
      title={<Trans>申请开通团队版</Trans>}
      intro={
        <Trans>
          团队版供出版社、报社、机关等单位使用：成员共享词库和领导人词库，管理员分配权益、查看使用数据。提交后我们会尽快审核，通过后您将成为团队的超级管理员。
        </Trans>
      }
      done={submit.isSuccess ? <Trans>申请已提交，审核通过后您会在“我的团队”中看到新团队。</Trans> : null}
      error={submit.error}
      valid={valid}
      busy={submit.isPending}
      onSubmit={() => submit.mutate()}
    >
      <TextField
        label={<Trans>单位名称</Trans>}
        required
        value={form.name}
        onChange={set('name')}
        maxLength={100}
        testId="team-apply-name"
      />
      <TextField
        label={<Trans>联系人</Trans>}
        required
        value={form.contact_name}
        onChange={set('contact_name')}
        maxLength={50}
        testId="team-apply-contact"
      />
      <TextField
        label={<Trans>联系电话</Trans>}
        required
        invalid={!!phone && !PHONE.test(phone)}
        value={phone}
        onChange={set('phone')}
        maxLength={11}
        inputMode="tel"
      />
      <TextField
        label={<Trans>邮箱</Trans>}
        invalid={!!email && !EMAIL.test(email)}
        value={form.email}
        onChange={set('email')}
        maxLength={100}
        type="email"
      />
      <TextField label={<Trans>地址</Trans>} value={form.address} onChange={set('address')} maxLength={200} />
      <TextField
        label={<Trans>预计人数</Trans>}
        value={form.user_num}
        onChange={set('user_num')}
        maxLength={6}
        inputMode="numeric"
      />
      <Field.Root>
        <Field.Label>
          <Trans>用途说明</Trans>
        </Field.Label>
        <Textarea
          value={form.remark}
          onChange={(e) => set('remark')(e.target.value)}
          maxLength={1000}
          rows={3}
          placeholder={t`例如：编辑部日常稿件校对`}
        />
      </Field.Root>
    </ApplyShell>
  );
}
